import { create, Provider } from '@umijs/plugins/libs/dva';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import createLoading from 'dva-loading';
import type { ReactNode } from 'react';
import typeModel from '@/models/type';
import { envelope, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import type { TypeRecord } from '#contract/type';
import TypeSelect from './TypeSelect';

const type = (n: number, typeName: string): TypeRecord => ({
  _id: `65f1a2b3c4d5e6f708192b${String(n).padStart(2, '0')}`,
  version: 1,
  typeName,
  createdAt: 1_700_000_000_000 + n,
});

const sent = installFakeNetwork((req) => {
  if (req.method === 'GET' && req.url === '/api/type') {
    return { status: 200, body: envelope([type(1, 'HTML'), type(2, 'JavaScript')]) };
  }
  return refusal(404, '请求的资源不存在');
});

beforeEach(() => {
  sent.length = 0;
  localStorage.setItem('adminToken', 'live-token');
});

/** The app's own dva store (type model and loading plugin), as Umi's root container builds it. */
function withStore(children: ReactNode, typeList: TypeRecord[] = []) {
  const app = create({ initialState: { type: { typeList } } }, { initialReducer: {} });
  app.use(createLoading());
  app.model(typeModel);
  app.start();
  return <Provider store={app._store}>{children}</Provider>;
}

const openSelect = () => fireEvent.mouseDown(screen.getByRole('combobox'));

const option = (name: string) => screen.findByText(name, { selector: '.ant-select-item-option-content' }, { timeout: 5_000 });

describe('TypeSelect', () => {
  it('loads the types from GET /api/type when the store has none and lists their names', async () => {
    render(withStore(<TypeSelect placeholder="请选择书籍分类" />));

    openSelect();

    expect(await option('HTML')).toBeInTheDocument();
    expect(await option('JavaScript')).toBeInTheDocument();
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/type']);
    expect(screen.getByText('请选择书籍分类')).toBeInTheDocument();
  });

  it('uses the types already in the store without asking again', async () => {
    render(withStore(<TypeSelect />, [type(3, 'Go')]));

    openSelect();

    expect(await option('Go')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it("reports the chosen type's _id", async () => {
    const onChange = jest.fn();
    render(withStore(<TypeSelect onChange={onChange} />));
    openSelect();

    fireEvent.click(await option('JavaScript'));

    expect(onChange).toHaveBeenCalledWith('65f1a2b3c4d5e6f708192b02');
  });

  it('shows the name of the type it is given', async () => {
    render(withStore(<TypeSelect value="65f1a2b3c4d5e6f708192b01" />));

    await waitFor(() => expect(document.querySelector('.ant-select-selection-item')).toHaveTextContent('HTML'));
  });

  it('reports an empty value when cleared', async () => {
    const onChange = jest.fn();
    render(withStore(<TypeSelect value="65f1a2b3c4d5e6f708192b01" onChange={onChange} allowClear />));
    await waitFor(() => expect(document.querySelector('.ant-select-selection-item')).toHaveTextContent('HTML'));

    act(() => {
      fireEvent.mouseDown(document.querySelector('.ant-select-clear') as HTMLElement);
    });

    expect(onChange).toHaveBeenCalledWith('');
  });
});
