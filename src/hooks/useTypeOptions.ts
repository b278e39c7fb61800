import { useEffect, useMemo } from 'react';
import { alreadyShown } from '@/services/api';
import { useTypeStore } from './useTypeStore';

/** The dva type list (loaded when empty), as a ProTable valueEnum and an id → name lookup. */
export function useTypeOptions() {
  const { typeList, init } = useTypeStore();
  useEffect(() => {
    if (typeList.length === 0) init().catch(alreadyShown);
  }, [typeList.length, init]);
  return useMemo(() => {
    const valueEnum: Record<string, { text: string }> = {};
    for (const type of typeList) valueEnum[type._id] = { text: type.typeName };
    const nameOf = (id: string) => valueEnum[id]?.text ?? '-';
    return { valueEnum, nameOf };
  }, [typeList]);
}
