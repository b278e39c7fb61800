import type { EffectsCommandMap, PayloadAction } from '@/types/dva';
import { createAdmin, getAdmin, listAdmins, removeAdmin, updateAdmin } from '@/services/admin';
import type { Admin, CreateAdminBody, CreatedAdmin, UpdateAdminBody, WhoAmI } from '#contract/admin';

export interface AdminModelState {
  adminList: Admin[];
  /**
   * The signed-in admin, read-only here: a mirror of `initialState.adminInfo`, which alone owns it
   * (login, logout, an edit of oneself all go through setInitialState). app.tsx's AdminInfoMirror
   * is the one place that dispatches setAdminInfo, whenever initialState changes; nothing else
   * writes it, so the two cannot disagree for longer than a render.
   */
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
 * Effects change the store only after the server has said yes, and answer their caller through
 * dispatch's promise: the created or fresh record on success. A refusal is not caught here: the
 * dispatch's promise rejects with it, once the request layer has shown it (services/api.ts).
 */
const AdminModel = {
  namespace: 'admin',

  state: { adminList: [], adminInfo: null } as AdminModelState,

  effects: {
    *init(_: PayloadAction<undefined>, { call, put }: EffectsCommandMap) {
      const adminList = (yield call(listAdmins)) as Admin[];
      yield put({ type: 'setAdminList', payload: adminList });
    },

    *add({ payload }: PayloadAction<CreateAdminBody>, { call, put }: EffectsCommandMap) {
      const created = (yield call(createAdmin, payload)) as CreatedAdmin;
      // The generated password is shown once by the page, never kept in the store.
      const { initialPassword: _shownOnce, ...admin } = created;
      yield put({ type: 'appendAdmin', payload: admin });
      return created;
    },

    *delete({ payload: id }: PayloadAction<string>, { call, put }: EffectsCommandMap) {
      yield call(removeAdmin, id);
      yield put({ type: 'dropAdmin', payload: id });
    },

    *edit({ payload }: PayloadAction<EditAdminPayload>, { call, put }: EffectsCommandMap) {
      yield call(updateAdmin, payload.id, payload.changes);
      const fresh = (yield call(getAdmin, payload.id)) as Admin;
      yield put({ type: 'mergeAdmin', payload: fresh });
      return fresh;
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
      // An edit of oneself reaches adminInfo through initialState (see AdminModelState).
      const adminList = state.adminList.map((admin) => (admin._id === payload._id ? { ...admin, ...payload } : admin));
      return { ...state, adminList };
    },

    /** Mirrors initialState's admin (see AdminModelState): dispatched by app.tsx's AdminInfoMirror only. */
    setAdminInfo(state: AdminModelState, { payload }: PayloadAction<WhoAmI | null>): AdminModelState {
      return { ...state, adminInfo: payload ? pickAdminInfo(payload) : null };
    },
  },
};

export default AdminModel;
