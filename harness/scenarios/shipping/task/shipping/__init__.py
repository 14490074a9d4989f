"""Parcel prices: billable weight, zone rates and the remote surcharge."""
