"""Keep checkpoint files small when state dicts hold views into large flat buffers."""
