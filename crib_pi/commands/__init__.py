"""Sub-commands of ``crib-pi``; each module adds one (see ``crib_pi.cli``)."""
