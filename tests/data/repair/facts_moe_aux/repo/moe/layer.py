"""A toy mixture-of-experts layer: each expert records a load-balancing loss when it routes."""


class ExpertLayer:
    def __init__(self, name):
        self.name = name
        self.aux_loss = None  # set by route(); stays None when no token reached this expert

    def route(self, tokens):
        if not tokens:
            return []
        share = len(tokens) / 8.0
        self.aux_loss = share * share
        return tokens
