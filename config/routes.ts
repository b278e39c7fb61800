/**
 * The route table of docs/requirements.md. `access` names a flag of src/access.ts; a group's redirect child
 * takes its parent's flag, so a refused group refuses its redirect too.
 */
export interface AppRoute {
  path: string;
  component?: string;
  redirect?: string;
  name?: string;
  icon?: string;
  access?: 'canNormalAdmin' | 'canSuperAdmin';
  hideInMenu?: boolean;
  layout?: false;
  routes?: AppRoute[];
}

const routes: AppRoute[] = [
  { path: '/login', component: './Login', layout: false },
  { path: '/', redirect: '/home', access: 'canNormalAdmin' },
  {
    path: '/home',
    name: '首页',
    icon: 'HomeOutlined',
    component: './Home',
    access: 'canNormalAdmin',
  },
  {
    path: '/review',
    name: '审核台',
    icon: 'AuditOutlined',
    component: './Review',
    access: 'canNormalAdmin',
  },
  {
    // Beside 审核台: what sends content there. Every admin reads the rules; a super admin changes them.
    path: '/moderation',
    name: '审核规则',
    icon: 'SafetyOutlined',
    component: './Moderation',
    access: 'canNormalAdmin',
  },
  {
    path: '/admin',
    name: '管理员',
    icon: 'UserOutlined',
    access: 'canSuperAdmin',
    routes: [
      { path: '/admin', redirect: '/admin/adminList' },
      {
        path: '/admin/adminList',
        name: '管理员列表',
        component: './Admin/AdminList',
        access: 'canSuperAdmin',
      },
      {
        path: '/admin/addAdmin',
        name: '添加管理员',
        component: './Admin/AddAdmin',
        access: 'canSuperAdmin',
      },
    ],
  },
  {
    path: '/user',
    name: '用户',
    icon: 'TeamOutlined',
    access: 'canNormalAdmin',
    routes: [
      { path: '/user', redirect: '/user/userList' },
      {
        path: '/user/userList',
        name: '用户列表',
        component: './User/UserList',
        access: 'canNormalAdmin',
      },
      {
        path: '/user/addUser',
        name: '添加用户',
        component: './User/AddUser',
        access: 'canNormalAdmin',
      },
      {
        path: '/user/editUser/:id',
        name: '编辑用户',
        component: './User/EditUser',
        access: 'canNormalAdmin',
        hideInMenu: true,
      },
    ],
  },
  {
    path: '/book',
    name: '书籍',
    icon: 'ReadOutlined',
    access: 'canNormalAdmin',
    routes: [
      { path: '/book', redirect: '/book/bookList' },
      {
        path: '/book/bookList',
        name: '书籍列表',
        component: './Book/BookList',
        access: 'canNormalAdmin',
      },
      {
        path: '/book/addBook',
        name: '添加书籍',
        component: './Book/AddBook',
        access: 'canNormalAdmin',
      },
      {
        path: '/book/editBook/:id',
        name: '编辑书籍信息',
        component: './Book/EditBook',
        access: 'canNormalAdmin',
        hideInMenu: true,
      },
    ],
  },
  {
    path: '/interview',
    name: '面试题',
    icon: 'EditOutlined',
    access: 'canNormalAdmin',
    routes: [
      { path: '/interview', redirect: '/interview/interviewList' },
      {
        path: '/interview/interviewList',
        name: '题目列表',
        component: './Interview/InterviewList',
        access: 'canNormalAdmin',
      },
      {
        path: '/interview/addInterview',
        name: '添加题目',
        component: './Interview/AddInterview',
        access: 'canNormalAdmin',
      },
      {
        path: '/interview/interviewList/:id',
        name: '题目详情',
        component: './Interview/InterviewDetail',
        access: 'canNormalAdmin',
        hideInMenu: true,
      },
      {
        path: '/interview/editInterview/:id',
        name: '编辑题目',
        component: './Interview/EditInterview',
        access: 'canNormalAdmin',
        hideInMenu: true,
      },
    ],
  },
  {
    path: '/issue',
    name: '问答',
    icon: 'ProfileOutlined',
    component: './Issue/IssueList',
    access: 'canNormalAdmin',
  },
  {
    path: '/issue/:id',
    name: '问答详情',
    component: './Issue/IssueDetail',
    access: 'canNormalAdmin',
    hideInMenu: true,
  },
  {
    path: '/commentList',
    name: '评论',
    icon: 'CalendarOutlined',
    component: './Comment/CommentList',
    access: 'canNormalAdmin',
  },
  {
    path: '/audit',
    name: '操作日志',
    icon: 'HistoryOutlined',
    component: './Audit/AuditList',
    access: 'canNormalAdmin',
  },
  {
    path: '/typeList',
    name: '类型',
    icon: 'AppstoreOutlined',
    component: './Type/TypeList',
    access: 'canNormalAdmin',
  },
  {
    path: '/trash',
    name: '回收站',
    icon: 'DeleteOutlined',
    component: './Trash/TrashList',
    access: 'canNormalAdmin',
  },
  {
    path: '/settings',
    name: '个人设置',
    component: './Settings',
    access: 'canNormalAdmin',
    hideInMenu: true,
  },
  // Last: any other address shows a 404 page in the layout rather than an empty one.
  { path: '/*', component: './NotFound' },
];

export default routes;
