import { Select } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTypeStore } from '@/hooks/useTypeStore';
import { alreadyShown } from '@/services/api';

interface TypeSelectProps {
  /** Given by Form.Item so that the field's label points at the select (and assistive technology reads it). */
  id?: string;
  /** The chosen type's `_id`. */
  value?: string;
  onChange?: (value: string) => void;
  placeholder?: string;
  allowClear?: boolean;
}

/** A form field control choosing one type from the dva `type` model (loaded when empty). */
export default function TypeSelect({ id, value, onChange, placeholder = '请选择分类', allowClear }: TypeSelectProps) {
  const { typeList, loading, init } = useTypeStore();
  useEffect(() => {
    if (typeList.length === 0) init().catch(alreadyShown);
  }, [typeList.length, init]);

  const options = useMemo(() => typeList.map((type) => ({ label: type.typeName, value: type._id })), [typeList]);

  return (
    <Select
      id={id}
      // '' is a form's "no type chosen": the select shows its placeholder rather than an empty choice.
      value={value || undefined}
      // Clearing answers undefined; a form field holds '' for "no type chosen".
      onChange={(next?: string) => onChange?.(next ?? '')}
      placeholder={placeholder}
      allowClear={allowClear}
      options={options}
      loading={loading}
      showSearch
      optionFilterProp="label"
      notFoundContent={loading ? '加载中...' : undefined}
    />
  );
}
