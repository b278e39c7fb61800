import { createType, listTypes, removeType, updateType } from '@/services/type';
import type { TypeRecord } from '../../contract/type';
import type { EffectsCommandMap, PayloadAction } from '@/types/dva';

export interface TypeModelState {
  typeList: TypeRecord[];
}

export interface RenameTypePayload {
  id: string;
  typeName: string;
}

/*
 * As in the admin model, effects answer through dispatch's promise (the record or true on
 * success, null or false when refused) and never throw.
 */
const TypeModel = {
  namespace: 'type',

  state: { typeList: [] } as TypeModelState,

  effects: {
    *init(_: PayloadAction<undefined>, { call, put }: EffectsCommandMap) {
      try {
        const typeList = (yield call(listTypes)) as TypeRecord[];
        yield put({ type: 'setTypeList', payload: typeList });
        return true;
      } catch {
        return false;
      }
    },

    *add({ payload: typeName }: PayloadAction<string>, { call, put }: EffectsCommandMap) {
      try {
        const created = (yield call(createType, typeName)) as TypeRecord;
        yield put({ type: 'appendType', payload: created });
        return created;
      } catch {
        return null;
      }
    },

    *delete({ payload: id }: PayloadAction<string>, { call, put }: EffectsCommandMap) {
      try {
        yield call(removeType, id);
      } catch {
        return false;
      }
      yield put({ type: 'dropType', payload: id });
      return true;
    },

    *edit({ payload }: PayloadAction<RenameTypePayload>, { call, put }: EffectsCommandMap) {
      try {
        yield call(updateType, payload.id, payload.typeName);
      } catch {
        return false;
      }
      yield put({ type: 'renameType', payload });
      return true;
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

    renameType(
      state: TypeModelState,
      { payload }: PayloadAction<RenameTypePayload>,
    ): TypeModelState {
      const typeList = state.typeList.map((type) =>
        type._id === payload.id ? { ...type, typeName: payload.typeName } : type,
      );
      return { ...state, typeList };
    },
  },
};

export default TypeModel;
