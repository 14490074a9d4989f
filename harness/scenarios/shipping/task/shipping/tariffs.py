"""Zone rates and the price of one parcel, in euros."""
from shipping.weights import billable_kg

RATE_PER_KG = {"domestic": 1.20, "europe": 2.60, "islands": 1.20}
REMOTE_ZONES = frozenset({"islands"})
REMOTE_SURCHARGE = 4.90


def parcel_price(weight_kg: float, zone: str) -> float:
    """The price of one parcel of `weight_kg` sent to `zone`."""
    kilos = billable_kg(weight_kg)
    price = kilos * RATE_PER_KG[zone]
    if zone in REMOTE_ZONES:
        price += REMOTE_SURCHARGE * kilos
    return round(price, 2)
