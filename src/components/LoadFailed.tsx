import { history } from '@umijs/max';
import { Button, Card, Empty } from 'antd';

interface LoadFailedProps {
  /** Why nothing could be loaded, as the server said it. */
  error: string;
  /** Where the way out leads, and what it is called. */
  backTo: string;
  backText: string;
}

/** Stands in for a record that could not be loaded, with the way back to its list. */
export default function LoadFailed({ error, backTo, backText }: LoadFailedProps) {
  return (
    <Card>
      <Empty description={error}>
        <Button type="primary" onClick={() => history.push(backTo)}>
          {backText}
        </Button>
      </Empty>
    </Card>
  );
}
