"""The calibration sheet's instructions in every language pnp ships words for."""

from __future__ import annotations

from pnp.render.sheets.calibration import CalibrationTexts

CALIBRATION_TEXTS: dict[str, CalibrationTexts] = {
    "en": CalibrationTexts(),
    "ja": CalibrationTexts(
        lang="ja",
        title_front="両面印刷の位置合わせ：表",
        title_back="両面印刷の位置合わせ：裏",
        edge_names={"long": "長辺", "short": "短辺"},
        front_steps=(
            "1. 両面印刷（{edge}とじ）で、実際のサイズ（100%）のまま1枚に印刷します（「用紙に合わせる」は使わない）。",
            "2. 50 mm の目盛りを定規で確かめます。50 mm でなければ、先に印刷の倍率を直してください。",
            "3. 用紙を裏返し、裏面の手順に進みます。",
        ),
        back_steps=(
            "1. この面を手前にして、用紙を明るい光や窓にかざします。",
            "2. 各ターゲットで、表の長い線が透けて見えます。縦線が X の目盛りと交わる位置、横線が Y の目盛りと"
            "交わる位置を読みます（単位 mm、目盛りは 0.5 mm ごと）。",
            "3. 読んだ値で --back-offset X,Y を付けてビルドします（例：--back-offset 1.5,-0.5）。"
            "すべての線が 0 にあれば補正は不要です。",
            "4. 四隅で値が違う場合は、プリンターが裏面を回転・拡大しています。中央のターゲット（C）の値を使い、"
            "四隅には小さなずれが残ると考えてください。",
        ),
    ),
}


def calibration_texts(lang: str) -> CalibrationTexts:
    return CALIBRATION_TEXTS.get(lang, CALIBRATION_TEXTS["en"])


def all_calibration_strings(lang: str) -> list[str]:
    texts = calibration_texts(lang)
    return [texts.title_front, texts.title_back, *texts.edge_names.values(), *texts.front_steps,
            *texts.back_steps, texts.x_scale, texts.y_scale, "0123456789+-−.,: mm ±"]
