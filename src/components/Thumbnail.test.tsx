import { fireEvent, render, screen } from '@testing-library/react';
import { Thumbnail } from './Thumbnail';

describe('Thumbnail', () => {
  it('shows the picture, and the fallback once when the picture fails to load', () => {
    render(<Thumbnail src="/static/uploads/missing.png" fallback="/default-avatar.svg" alt="alice的头像" width={48} height={48} />);
    const img = screen.getByAltText('alice的头像') as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('/static/uploads/missing.png');
    expect(img).toHaveAttribute('width', '48');

    fireEvent.error(img);
    expect(img.getAttribute('src')).toBe('/default-avatar.svg');

    // A missing fallback is not retried forever.
    img.setAttribute('src', '/elsewhere.png');
    fireEvent.error(img);
    expect(img.getAttribute('src')).toBe('/elsewhere.png');
  });
});
