"""errkb: the local-LLM errors knowledge base (schema, loader, corpus, renderer, CLI)."""

__version__ = "0.1.0"
