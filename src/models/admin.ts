import type { EffectsCommandMap, PayloadAction } from '@/types/dva';
import { createAdmin, getAdmin, listAdmins, removeAdmin, updateAdmin } from '@/services/admin';
import type { Admin, CreateAdminBody, CreatedAdmin, UpdateAdminBody, WhoAmI } from '../../contract/admin';

export interface AdminModelState {
  adminList: Admin[];
  /** The signed-in admin as this store knows it, kept fresh when an edit touches it. */
  adminInfo: WhoAmI | null;
}

export interface EditAdminPayload {
  id: string;
  changes: UpdateAdminBody;
}

function pickAdminInfo(admin: WhoAmI): WhoAmI {
  const { _id, loginId, nickname, avatar, permission } = admin;
  return { _id, loginId, nickname, avatar, permission };
}

/*
 * Each effect answers its caller through dispatch's promise: the created or fresh record, or
 * true, on success; null or false when the server refused (the request layer has already shown
 * its message). Effects never throw: dva's default onError would end the effect's watcher.
 */
const AdminModel = {
  namespace: 'admin',

  state: { adminList: [], adminInfo: null } as AdminModelState,

  effects: {
    *init(_: PayloadAction<undefined>, { call, put }: EffectsCommandMap) {
      try {
        const adminList = (yield call(listAdmins)) as Admin[];
        yield put({ type: 'setAdminList', payload: adminList });
        return true;
      } catch {
        return false;
      }
    },

    *add({ payload }: PayloadAction<CreateAdminBody>, { call, put }: EffectsCommandMap) {
      try {
        const created = (yield call(createAdmin, payload)) as CreatedAdmin;
        // The generated password is shown once by the page, never kept in the store.
        const { initialPassword: _shownOnce, ...admin } = created;
        yield put({ type: 'appendAdmin', payload: admin });
        return created;
      } catch {
        return null;
      }
    },

    *delete({ payload: id }: PayloadAction<string>, { call, put }: EffectsCommandMap) {
      try {
        yield call(removeAdmin, id);
      } catch {
        return false;
      }
      yield put({ type: 'dropAdmin', payload: id });
      return true;
    },

    *edit({ payload }: PayloadAction<EditAdminPayload>, { call, put }: EffectsCommandMap) {
      try {
        yield call(updateAdmin, payload.id, payload.changes);
        const fresh = (yield call(getAdmin, payload.id)) as Admin;
        yield put({ type: 'mergeAdmin', payload: fresh });
        return fresh;
      } catch {
        return null;
      }
    },
  },

  reducers: {
    setAdminList(state: AdminModelState, { payload }: PayloadAction<Admin[]>): AdminModelState {
      return { ...state, adminList: payload };
    },

    appendAdmin(state: AdminModelState, { payload }: PayloadAction<Admin>): AdminModelState {
      return { ...state, adminList: [...state.adminList, payload] };
    },

    dropAdmin(state: AdminModelState, { payload: id }: PayloadAction<string>): AdminModelState {
      return { ...state, adminList: state.adminList.filter((admin) => admin._id !== id) };
    },

    mergeAdmin(state: AdminModelState, { payload }: PayloadAction<Admin>): AdminModelState {
      const adminList = state.adminList.map((admin) =>
        admin._id === payload._id ? { ...admin, ...payload } : admin,
      );
      const adminInfo =
        state.adminInfo?._id === payload._id ? pickAdminInfo(payload) : state.adminInfo;
      return { ...state, adminList, adminInfo };
    },

    setAdminInfo(
      state: AdminModelState,
      { payload }: PayloadAction<WhoAmI | null>,
    ): AdminModelState {
      return { ...state, adminInfo: payload ? pickAdminInfo(payload) : null };
    },
  },
};

export default AdminModel;
