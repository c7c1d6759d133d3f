"""Looking ahead: the exact solver, determinized analysis of a seat's position, and the learned
network run with numpy. The bots (:mod:`sixtysix.bots`) are built on these."""
