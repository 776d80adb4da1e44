"""Sums the experts' load-balancing losses into the auxiliary term of the training loss."""


def total_aux_loss(layers):
    total = 0.0
    for layer in layers:
        total += layer.aux_loss
    return total


def scaled_aux_loss(layers, coefficient=0.01):
    return coefficient * total_aux_loss(layers)
