// Stands in for antd's colour-presets panel where antd's button theme imports it for its one
// helper, `isBright` (is black text better than white on the solid button's colour?). Importing
// the panel brings the panel along, and with it Collapse, into the first bundle of every page
// (~5 KB gzipped); the colour picker itself still has the real panel.
import { AggregationColor } from 'antd/es/color-picker/color';

/** Whether `color`, laid over `background`, is light enough to want dark text on it. */
export function isBright(color: AggregationColor, background: string): boolean {
  const { r, g, b, a } = color.toRgb();
  const under = new AggregationColor(background).toRgb();
  const over = (top: number, bottom: number) => top * a + bottom * (1 - a);
  // Perceived lightness (Rec. 601 luma weights), 0–255.
  const luma = 0.299 * over(r, under.r) + 0.587 * over(g, under.g) + 0.114 * over(b, under.b);
  return luma > 192;
}
