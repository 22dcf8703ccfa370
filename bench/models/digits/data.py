# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The digits data set and its fixed split, without PyTorch.

scikit-learn's bundled handwritten digits (8x8 images, 10 classes), split
once and for all into 1347 training and 450 held-out images. Used by
train.py and models.py, and by the accuracy benchmark and the tutorial,
which need the held-out images but not PyTorch.
"""

import numpy as np

NUM_CLASSES = 10
SEED = 0
TEST_FRACTION = 0.25

# Input layout of each model (batch dimension first, filled in by callers).
INPUT_SHAPES = {
    "mlp": (64,),
    "cnn": (1, 8, 8),
    "lstm": (8, 8),
    "transformer": (8, 8),
}


def load_split():
    """The fixed train/held-out split: (x_train, x_test, y_train, y_test).

    x is float32 in [0, 1] with shape (N, 8, 8); y is int64. The split is
    stratified and seeded, so every run sees the same 450 held-out images.
    """
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split
    digits = load_digits()
    x = (digits.images / 16.0).astype(np.float32)
    y = digits.target.astype(np.int64)
    return train_test_split(x, y, test_size=TEST_FRACTION, random_state=SEED,
                            stratify=y)


def as_input(name, images):
    """Images (N, 8, 8) in the layout model `name` reads."""
    return np.ascontiguousarray(images.reshape((images.shape[0],) + INPUT_SHAPES[name]),
                                dtype=np.float32)
