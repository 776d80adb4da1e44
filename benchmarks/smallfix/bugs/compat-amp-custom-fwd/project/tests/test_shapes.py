import pytest
import torch

from zerolinear.shapes import check_linear_shapes, flatten_leading_dims


def test_flatten():
    assert flatten_leading_dims(torch.zeros(2, 3, 4)).shape == (6, 4)


def test_shape_mismatch():
    with pytest.raises(ValueError):
        check_linear_shapes(torch.zeros(2, 3), torch.zeros(4, 5))
