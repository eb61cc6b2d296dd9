"""The build orchestrator and the live preview's builder: plan, check, render, write."""
