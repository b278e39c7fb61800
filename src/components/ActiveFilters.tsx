import { CloseOutlined } from '@ant-design/icons';
import { Button, Space, Tag } from 'antd';

export interface ActiveFilter {
  /** The search form's field the filter comes from. */
  field: string;
  /** 「审核状态：待审核」 */
  text: string;
}

/**
 * The filters the list is showing, each removable: a filter set by a link (the home page's
 * 待审核问答) may sit in a collapsed part of the search form, and the rows need their reason.
 */
export function ActiveFilters({ filters, onRemove }: { filters: ActiveFilter[]; onRemove: (field: string) => void }) {
  return (
    <Space wrap size={[8, 8]} aria-label="当前筛选" role="group">
      <span>当前筛选：</span>
      {filters.map((filter) => (
        <Tag key={filter.field} style={{ marginInlineEnd: 0 }}>
          {filter.text}
          <Button
            type="text"
            size="small"
            icon={<CloseOutlined />}
            aria-label={`移除筛选「${filter.text}」`}
            onClick={() => onRemove(filter.field)}
            style={{ marginInlineStart: 4, width: 20, height: 20, minWidth: 20 }}
          />
        </Tag>
      ))}
    </Space>
  );
}
