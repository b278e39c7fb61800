import { Badge } from 'antd';
import { useEffect, useState } from 'react';
import { reviewCounts, subscribeReview } from '@/services/review';

/** The 审核台 menu entry's live count of what waits (GET /api/review/events, counts). */
export default function ReviewBadge() {
  const [total, setTotal] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    reviewCounts().then(
      (counts) => live && setTotal((known) => known ?? counts.total),
      () => undefined,
    );
    const stop = subscribeReview((event) => {
      if (event.type === 'counts') setTotal(event.data.total);
    });
    return () => {
      live = false;
      stop();
    };
  }, []);
  if (total === null) return null;
  return (
    <Badge
      count={total}
      showZero
      overflowCount={999}
      size="small"
      style={{ marginInlineStart: 8 }}
      aria-label={`待审 ${total} 项`}
      data-testid="review-badge"
      title={`待审 ${total} 项`}
    />
  );
}
