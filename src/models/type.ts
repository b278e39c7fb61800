import { createType, listTypes, removeType, updateType } from '@/services/type';
import type { TypeRecord } from '#contract/type';
import type { EffectsCommandMap, PayloadAction } from '@/types/dva';

export interface TypeModelState {
  typeList: TypeRecord[];
}

export interface RenameTypePayload {
  id: string;
  typeName: string;
  /** The version the rename started from; omitted, the rename overwrites whatever is there. */
  version?: number;
}

/*
 * As in the admin model, effects change the store only after a success, answer the created record
 * through dispatch's promise, and let a refusal reject it (services/api.ts).
 */
const TypeModel = {
  namespace: 'type',

  state: { typeList: [] } as TypeModelState,

  effects: {
    *init(_: PayloadAction<undefined>, { call, put }: EffectsCommandMap) {
      const typeList = (yield call(listTypes)) as TypeRecord[];
      yield put({ type: 'setTypeList', payload: typeList });
    },

    *add({ payload: typeName }: PayloadAction<string>, { call, put }: EffectsCommandMap) {
      const created = (yield call(createType, typeName)) as TypeRecord;
      yield put({ type: 'appendType', payload: created });
      return created;
    },

    *delete({ payload: id }: PayloadAction<string>, { call, put }: EffectsCommandMap) {
      yield call(removeType, id);
      yield put({ type: 'dropType', payload: id });
    },

    *edit({ payload }: PayloadAction<RenameTypePayload>, { call, put }: EffectsCommandMap) {
      const renamed = (yield call(updateType, payload.id, payload.typeName, payload.version)) as TypeRecord;
      // The answer carries the new version, which the next rename must send.
      yield put({ type: 'replaceType', payload: renamed });
    },
  },

  reducers: {
    setTypeList(state: TypeModelState, { payload }: PayloadAction<TypeRecord[]>): TypeModelState {
      return { ...state, typeList: payload };
    },

    appendType(state: TypeModelState, { payload }: PayloadAction<TypeRecord>): TypeModelState {
      return { ...state, typeList: [...state.typeList, payload] };
    },

    dropType(state: TypeModelState, { payload: id }: PayloadAction<string>): TypeModelState {
      return { ...state, typeList: state.typeList.filter((type) => type._id !== id) };
    },

    replaceType(state: TypeModelState, { payload }: PayloadAction<TypeRecord>): TypeModelState {
      const typeList = state.typeList.map((type) => (type._id === payload._id ? payload : type));
      return { ...state, typeList };
    },
  },
};

export default TypeModel;
