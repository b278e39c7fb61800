// Stands in for @ctrl/tinycolor where ProProvider's style helpers import it (setAlpha, lighten).
// antd itself already carries @ant-design/fast-color, a port of the same colour arithmetic, so the
// second colour library (~5 KB gzipped on every page with the layout) has nothing left to do.
// fast-color writes `rgba(0,0,0,0.04)` where tinycolor wrote `rgba(0, 0, 0, 0.04)`: the same CSS.
import { FastColor } from '@ant-design/fast-color';

export class TinyColor {
  private readonly color: FastColor;

  constructor(input: string | FastColor) {
    this.color = input instanceof FastColor ? input : new FastColor(input);
  }

  setAlpha(alpha: number) {
    return new TinyColor(this.color.setA(alpha));
  }

  lighten(amount?: number) {
    return new TinyColor(this.color.lighten(amount));
  }

  toRgbString() {
    return this.color.toRgbString();
  }

  toHexString() {
    return this.color.toHexString();
  }
}
