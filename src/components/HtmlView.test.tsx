import { render } from '@testing-library/react';
import HtmlView from './HtmlView';

describe('HtmlView', () => {
  it('keeps the formatting and drops scripts, event attributes and javascript: links', () => {
    const { container } = render(
      <HtmlView
        html={
          '<p><strong>好</strong>问题</p><script>window.evil = 1</script><img src="/a.png" onerror="window.evil = 2"><a href="javascript:alert(1)">链接</a>'
        }
      />,
    );
    expect(container.querySelector('strong')).toHaveTextContent('好');
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')?.getAttribute('onerror')).toBeNull();
    expect(container.querySelector('a')?.getAttribute('href') ?? '').not.toMatch(/javascript:/);
    expect(container.innerHTML).not.toContain('evil');
  });
});
