"""``python -m crib_pi`` is the ``crib-pi`` command."""

from crib_pi.cli import main

raise SystemExit(main())
