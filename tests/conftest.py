"""Test configuration: hypothesis settings shared by the property tests.

Each property test sets its own number of examples; the profile here removes
the per-example deadline (an example plays a whole hand) so that slow
machines do not fail on timing.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("sixtysix", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "sixtysix"))
