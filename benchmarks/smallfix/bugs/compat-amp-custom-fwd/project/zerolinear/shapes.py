def flatten_leading_dims(tensor):
    """[..., features] -> [N, features]."""
    return tensor.reshape(-1, tensor.shape[-1])


def check_linear_shapes(input_, weight, bias=None):
    if input_.shape[-1] != weight.shape[1]:
        raise ValueError("input features %d != weight in_features %d" % (input_.shape[-1], weight.shape[1]))
    if bias is not None and bias.shape != (weight.shape[0],):
        raise ValueError("bias shape %s does not match out_features %d" % (tuple(bias.shape), weight.shape[0]))
