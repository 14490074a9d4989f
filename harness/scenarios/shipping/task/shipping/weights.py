"""The billable weight of a parcel, in whole kilograms."""
import math


def billable_kg(weight_kg: float) -> int:
    """The kilograms charged for a parcel weighing `weight_kg`."""
    if not math.isfinite(weight_kg) or weight_kg <= 0:
        raise ValueError(f"a parcel weighs more than 0 kg, got {weight_kg}")
    return round(weight_kg)
