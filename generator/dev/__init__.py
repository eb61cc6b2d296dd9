"""Developer tools (bench, peer, fidelity): not shipped in the wheel."""
