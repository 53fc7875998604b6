"""The measured wire: wirebench_wire's cases, runs and scenarios beside the transfer model."""
