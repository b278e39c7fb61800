import AdminModel, { type AdminModelState } from '@/models/admin';
import { createAdmin, getAdmin, listAdmins, removeAdmin, updateAdmin } from '@/services/admin';
import { createModelRunner, deferred } from '@/testing/modelRunner';
import type { Admin, CreatedAdmin } from '#contract/admin';

const refused = () => Object.assign(new Error('refused'), { response: { status: 400 } });

const admin = (id: string, fields: Partial<Admin> = {}): Admin => ({
  _id: id.padStart(24, '0'),
  version: 1,
  loginId: `admin${id}`,
  nickname: `管理员${id}`,
  avatar: '/default-avatar.svg',
  permission: 2,
  enabled: true,
  createdAt: 1_700_000_000_000,
  ...fields,
});

const runner = (initial: Partial<AdminModelState> = {}) => createModelRunner(AdminModel, initial);

describe('admin model', () => {
  it('starts with an empty list and no admin info', () => {
    expect(runner().state).toEqual({ adminList: [], adminInfo: null });
  });

  it('init replaces the list with every admin the server answers', async () => {
    const fromServer = [admin('1'), admin('2')];
    const model = runner({ adminList: [admin('9')] });
    model.provide(
      listAdmins,
      jest.fn(async () => fromServer),
    );

    await expect(model.run('init')).resolves.toBeUndefined();

    expect(model.state.adminList).toEqual(fromServer);
  });

  it('init keeps the list and hands the refusal to its caller', async () => {
    const model = runner({ adminList: [admin('9')] });
    const refusal = refused();
    model.provide(
      listAdmins,
      jest.fn(async () => Promise.reject(refusal)),
    );

    await expect(model.run('init')).rejects.toBe(refusal);

    expect(model.state.adminList).toEqual([admin('9')]);
  });

  it('add posts the new admin and appends the record the server returned', async () => {
    const created: CreatedAdmin = { ...admin('3'), initialPassword: 'Zx8-once' };
    const model = runner({ adminList: [admin('1')] });
    const post = model.provide(
      createAdmin,
      jest.fn(async () => created),
    );

    const answer = await model.run('add', { loginId: 'admin3', permission: 2 });

    expect(post).toHaveBeenCalledWith({ loginId: 'admin3', permission: 2 });
    expect(answer).toEqual(created);
    expect(model.state.adminList).toEqual([admin('1'), admin('3')]);
  });

  it('add answers the generated password but never keeps it in the store', async () => {
    const model = runner();
    model.provide(
      createAdmin,
      jest.fn(async () => ({ ...admin('3'), initialPassword: 'Zx8-once' })),
    );

    await expect(model.run('add', { loginId: 'admin3', permission: 2 })).resolves.toHaveProperty('initialPassword', 'Zx8-once');

    expect(model.state.adminList[0]).not.toHaveProperty('initialPassword');
  });

  it('add does not append and hands the refusal to its caller when the server refuses', async () => {
    const model = runner({ adminList: [admin('1')] });
    const refusal = refused();
    model.provide(
      createAdmin,
      jest.fn(async () => Promise.reject(refusal)),
    );

    await expect(model.run('add', { loginId: 'admin1', permission: 2 })).rejects.toBe(refusal);

    expect(model.state.adminList).toEqual([admin('1')]);
  });

  it('delete removes the admin only once the server has said yes', async () => {
    const call = deferred<void>();
    const model = runner({ adminList: [admin('1'), admin('2')] });
    const remove = model.provide(
      removeAdmin,
      jest.fn(() => call.promise),
    );

    const running = model.run('delete', admin('2')._id);
    await Promise.resolve();
    expect(remove).toHaveBeenCalledWith(admin('2')._id);
    expect(model.state.adminList).toEqual([admin('1'), admin('2')]);

    call.resolve();
    await expect(running).resolves.toBeUndefined();
    expect(model.state.adminList).toEqual([admin('1')]);
  });

  it('delete keeps the admin and hands the refusal to its caller', async () => {
    const model = runner({ adminList: [admin('1'), admin('2')] });
    const refusal = refused();
    model.provide(
      removeAdmin,
      jest.fn(async () => Promise.reject(refusal)),
    );

    await expect(model.run('delete', admin('2')._id)).rejects.toBe(refusal);

    expect(model.state.adminList).toEqual([admin('1'), admin('2')]);
  });

  it('edit sends the changes, re-fetches that admin and merges its fresh fields into its row', async () => {
    const fresh = admin('2', { nickname: '新昵称', avatar: '/static/uploads/a.png' });
    const model = runner({ adminList: [admin('1'), admin('2')] });
    const patch = model.provide(
      updateAdmin,
      jest.fn(async () => fresh),
    );
    const get = model.provide(
      getAdmin,
      jest.fn(async () => fresh),
    );

    const answer = await model.run('edit', {
      id: admin('2')._id,
      changes: { nickname: '新昵称', avatar: '/static/uploads/a.png' },
    });

    expect(patch).toHaveBeenCalledWith(admin('2')._id, {
      nickname: '新昵称',
      avatar: '/static/uploads/a.png',
    });
    expect(get).toHaveBeenCalledWith(admin('2')._id);
    expect(patch.mock.invocationCallOrder[0]).toBeLessThan(get.mock.invocationCallOrder[0]);
    expect(answer).toEqual(fresh);
    expect(model.state.adminList).toEqual([admin('1'), fresh]);
  });

  it('edit takes the re-fetched record, not the PATCH answer, as the truth', async () => {
    const model = runner({ adminList: [admin('2')] });
    model.provide(
      updateAdmin,
      jest.fn(async () => admin('2', { nickname: 'stale' })),
    );
    model.provide(
      getAdmin,
      jest.fn(async () => admin('2', { nickname: '服务器上的', enabled: false })),
    );

    await model.run('edit', { id: admin('2')._id, changes: { nickname: '服务器上的' } });

    expect(model.state.adminList[0]).toMatchObject({ nickname: '服务器上的', enabled: false });
  });

  it('edit leaves the row alone, fetches nothing and hands the refusal to its caller when the PATCH is refused', async () => {
    const model = runner({ adminList: [admin('2')] });
    const refusal = refused();
    model.provide(
      updateAdmin,
      jest.fn(async () => Promise.reject(refusal)),
    );
    const get = model.provide(
      getAdmin,
      jest.fn(async () => admin('2')),
    );

    await expect(model.run('edit', { id: admin('2')._id, changes: { enabled: false } })).rejects.toBe(refusal);

    expect(get).not.toHaveBeenCalled();
    expect(model.state.adminList).toEqual([admin('2')]);
  });

  it('edit of the signed-in admin leaves adminInfo to initialState, its one owner', async () => {
    const me = admin('1', { permission: 1 });
    const fresh = { ...me, nickname: '改过的我' };
    const model = runner({ adminList: [me], adminInfo: me });
    model.provide(
      updateAdmin,
      jest.fn(async () => fresh),
    );
    model.provide(
      getAdmin,
      jest.fn(async () => fresh),
    );

    await model.run('edit', { id: me._id, changes: { nickname: '改过的我' } });

    expect(model.state.adminList).toEqual([fresh]);
    expect(model.state.adminInfo).toBe(me);
  });

  it('setAdminInfo stores the current admin without account-state fields', () => {
    const model = runner();

    model.dispatch({ type: 'admin/setAdminInfo', payload: admin('1', { permission: 1 }) });

    expect(model.state.adminInfo).toEqual({
      _id: admin('1')._id,
      loginId: 'admin1',
      nickname: '管理员1',
      avatar: '/default-avatar.svg',
      permission: 1,
    });
  });
});
