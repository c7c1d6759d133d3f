"""The game itself: cards and actions, one hand as a make/unmake state machine, what a seat
may see of it, the worlds a view allows, matches, records, and the table that plays a hand
between players. Everything here decides its rules through :mod:`sixtysix.kernel`."""
