/**
 * Demo text for the content mocks: what a programmer community's back office holds. Kept apart
 * from mock/lib/content.ts, which turns it into dated, linked records. Type names are those of
 * mock/lib/store.ts's `db.types`, so every record points at a type that exists.
 */

export type TypeName = 'HTML' | 'CSS' | 'JavaScript' | 'React' | 'Vue' | 'Node.js' | '数据库';

export interface DemoUser {
  loginId: string;
  nickname: string;
  intro: string;
  /** Mail provider; empty: the user left mail blank. */
  mail: '' | 'qq.com' | '163.com' | 'gmail.com' | 'outlook.com' | 'foxmail.com';
  /** Whether the user filled in QQ and WeChat. */
  qq: boolean;
  wechat: boolean;
  enabled: boolean;
}

export const USERS: DemoUser[] = [
  { loginId: 'zhangwei', nickname: '前端小张', intro: '三年前端，主要写 React，最近在啃 TypeScript 类型体操。', mail: 'qq.com', qq: true, wechat: true, enabled: true },
  { loginId: 'lina_dev', nickname: '李娜', intro: '全栈开发，Node.js + Vue，喜欢折腾工程化。', mail: '163.com', qq: false, wechat: true, enabled: true },
  { loginId: 'wangqiang', nickname: '不秃头的强哥', intro: '后端转前端中，请多指教。', mail: 'qq.com', qq: true, wechat: false, enabled: true },
  { loginId: 'chenjing', nickname: '陈静', intro: '在校研究生，方向是数据库系统。', mail: 'gmail.com', qq: false, wechat: false, enabled: true },
  { loginId: 'liuyang88', nickname: '刘洋', intro: '', mail: '', qq: true, wechat: false, enabled: true },
  { loginId: 'yangfan', nickname: '扬帆起航', intro: '自学前端半年，目标是今年找到第一份工作。', mail: 'qq.com', qq: true, wechat: true, enabled: true },
  { loginId: 'huangmin', nickname: '黄敏', intro: 'UI 设计师，在学 CSS 动画和 SVG。', mail: 'outlook.com', qq: false, wechat: true, enabled: true },
  { loginId: 'zhaolei', nickname: '赵磊', intro: '十年 Java，现在带团队做 Node.js 中台。', mail: 'foxmail.com', qq: true, wechat: true, enabled: true },
  { loginId: 'wujie', nickname: '吴杰', intro: '热爱开源，给几个小库提过 PR。', mail: 'gmail.com', qq: false, wechat: false, enabled: true },
  { loginId: 'zhoutao', nickname: '摸鱼的涛', intro: '', mail: '', qq: false, wechat: false, enabled: false },
  { loginId: 'xuyan', nickname: '徐艳', intro: '测试开发，写 Playwright 和 Jest 比较多。', mail: '163.com', qq: true, wechat: false, enabled: true },
  { loginId: 'sunhao', nickname: '孙浩然', intro: '大三，ACM 退役选手，转做 Web。', mail: 'qq.com', qq: true, wechat: true, enabled: true },
  { loginId: 'majun', nickname: '马俊', intro: '运维出身，关注 Docker 和 CI/CD。', mail: 'outlook.com', qq: false, wechat: true, enabled: true },
  { loginId: 'zhuxinyi', nickname: '朱欣怡', intro: 'Vue 3 爱好者，正在写自己的组件库。', mail: 'qq.com', qq: true, wechat: true, enabled: true },
  { loginId: 'hujian', nickname: '胡建', intro: '', mail: '163.com', qq: false, wechat: false, enabled: true },
  { loginId: 'guojing', nickname: '郭静', intro: '产品经理，想多懂一点技术。', mail: 'foxmail.com', qq: false, wechat: true, enabled: true },
  { loginId: 'hezhiyuan', nickname: '何志远', intro: 'PostgreSQL 和 Redis 重度用户。', mail: 'gmail.com', qq: false, wechat: false, enabled: true },
  { loginId: 'linxiao', nickname: '林晓', intro: '小程序开发，偶尔写点 Flutter。', mail: 'qq.com', qq: true, wechat: true, enabled: true },
  { loginId: 'gaofeng', nickname: '高峰', intro: '发广告的账号，已处理。', mail: '', qq: true, wechat: true, enabled: false },
  { loginId: 'luoyu', nickname: '罗宇', intro: '前端性能优化爱好者，Lighthouse 满分强迫症。', mail: 'outlook.com', qq: false, wechat: false, enabled: true },
  { loginId: 'zhengshuang', nickname: '郑爽', intro: '', mail: 'qq.com', qq: true, wechat: false, enabled: true },
  { loginId: 'liangchen', nickname: '梁晨', intro: '刚入职的实习生，每天都在学新东西。', mail: '163.com', qq: false, wechat: true, enabled: true },
  { loginId: 'xiemeng', nickname: '谢梦', intro: '喜欢用 Canvas 做可视化。', mail: 'gmail.com', qq: false, wechat: false, enabled: true },
  { loginId: 'songyu', nickname: '宋宇航', intro: '嵌入式转 Web，对浏览器底层很好奇。', mail: 'qq.com', qq: true, wechat: true, enabled: true },
  { loginId: 'tangxin', nickname: '唐欣', intro: '', mail: '', qq: false, wechat: false, enabled: true },
  { loginId: 'hanmei', nickname: '韩梅梅', intro: '英语老师转行程序员，正在学 JavaScript。', mail: 'outlook.com', qq: false, wechat: true, enabled: true },
  { loginId: 'fengkai', nickname: '冯凯', intro: 'Go 和 Node.js 双修。', mail: 'foxmail.com', qq: true, wechat: false, enabled: true },
  { loginId: 'dengjia', nickname: '邓佳琪', intro: '设计转前端，对交互细节比较在意。', mail: 'qq.com', qq: true, wechat: true, enabled: true },
  { loginId: 'caoyi', nickname: '曹一诺', intro: '', mail: '163.com', qq: false, wechat: false, enabled: false },
  { loginId: 'xusiyuan', nickname: '许思远', intro: '后端工程师，MySQL 调优经验丰富。', mail: 'gmail.com', qq: false, wechat: true, enabled: true },
  { loginId: 'Coder_Ming', nickname: '熬夜的小明', intro: '白天写业务，晚上写博客。', mail: 'qq.com', qq: true, wechat: false, enabled: true },
  { loginId: 'frontend_cat', nickname: '前端喵', intro: '养了两只猫的前端工程师。', mail: 'outlook.com', qq: false, wechat: true, enabled: true },
  { loginId: 'nodejs_fan', nickname: 'Node 铁粉', intro: '从 0.10 版本开始用 Node.js。', mail: 'gmail.com', qq: false, wechat: false, enabled: true },
  { loginId: 'css_magic', nickname: 'CSS 魔法师', intro: '纯 CSS 画图爱好者。', mail: 'qq.com', qq: true, wechat: true, enabled: true },
  { loginId: 'newbie2024', nickname: '代码学徒', intro: '零基础，跟着社区的面试题一道道学。', mail: '', qq: true, wechat: false, enabled: true },
  { loginId: 'react_hooks', nickname: 'Hooks 小能手', intro: '', mail: '163.com', qq: false, wechat: true, enabled: true },
];

export interface DemoBook {
  title: string;
  type: TypeName;
  intro: string;
  points: 10 | 20 | 30 | 40;
  /** Short reader reviews, shown as the book's comments. */
  reviews: string[];
}

export const BOOKS: DemoBook[] = [
  {
    title: 'HTML5 权威指南',
    type: 'HTML',
    points: 10,
    intro: '<p>系统讲解 HTML5 的语义化元素、表单、多媒体与常用 API。</p><ul><li>语义化标签与文档结构</li><li>表单校验与无障碍</li><li>Canvas、音视频与本地存储</li></ul>',
    reviews: ['<p>适合入门，把每个标签为什么存在讲得很清楚。</p>'],
  },
  {
    title: 'Web 无障碍设计实践',
    type: 'HTML',
    points: 20,
    intro: '<p>从 WAI-ARIA 到键盘操作与读屏软件，手把手做出人人可用的网页。</p><p>附带大量<strong>改造前后</strong>的对比示例。</p>',
    reviews: [],
  },
  {
    title: 'CSS 世界',
    type: 'CSS',
    points: 20,
    intro: '<p>围绕「流」与盒模型，讲透 CSS 属性背后的规则，读完再也不怕莫名其妙的布局问题。</p>',
    reviews: ['<p>讲 line-height 和 vertical-align 那两章值回票价。</p>', '<p>有点啰嗦，但细节确实多。</p>'],
  },
  {
    title: 'CSS 揭秘',
    type: 'CSS',
    points: 30,
    intro: '<p>47 个 CSS 技巧，涵盖背景、形状、视觉效果、排版与动画。</p><blockquote>把 CSS 当作一门设计语言来用。</blockquote>',
    reviews: ['<p>每个技巧都很实用，配图也好看。</p>'],
  },
  {
    title: '深入解析 CSS Grid 与 Flexbox',
    type: 'CSS',
    points: 10,
    intro: '<p>对比两种布局模型的适用场景，配合二十多个真实页面布局练习。</p>',
    reviews: [],
  },
  {
    title: 'JavaScript 高级程序设计（第4版）',
    type: 'JavaScript',
    points: 40,
    intro: '<p>前端必读的「红宝书」，全面覆盖 ECMAScript 语言核心与浏览器 API。</p><ul><li>语言基础、对象与类</li><li>Promise、async/await 与迭代器</li><li>DOM、事件与网络请求</li></ul>',
    reviews: ['<p>第二遍读才真正看懂原型链那一章。</p>', '<p>当工具书查很方便，内容足够新。</p>', '<p>太厚了，建议配合视频一起看。</p>'],
  },
  {
    title: '你不知道的 JavaScript（上卷）',
    type: 'JavaScript',
    points: 30,
    intro: '<p>深入作用域、闭包、<code>this</code> 与原型，帮你真正理解 JavaScript 的运行机制。</p>',
    reviews: ['<p>闭包讲得最透的一本书。</p>', '<p>面试前必读。</p>'],
  },
  {
    title: 'JavaScript 设计模式与开发实践',
    type: 'JavaScript',
    points: 20,
    intro: '<p>用 JavaScript 的方式讲解单例、策略、代理、发布订阅等常用设计模式，并结合业务代码重构。</p>',
    reviews: ['<p>策略模式那章直接用到了表单校验里。</p>'],
  },
  {
    title: '现代 JavaScript 教程',
    type: 'JavaScript',
    points: 10,
    intro: '<p>从基础语法到浏览器环境，循序渐进，每一节都配有练习题。</p>',
    reviews: [],
  },
  {
    title: 'ES6 标准入门（第3版）',
    type: 'JavaScript',
    points: 20,
    intro: '<p>逐一介绍 ES6 及之后的新语法：解构、模块、Class、Proxy、Generator 等。</p><p>附有大量<a href="https://262.ecma-international.org/" target="_blank">规范</a>引用。</p>',
    reviews: ['<p>Proxy 和 Reflect 那部分写得很好。</p>'],
  },
  {
    title: '深入浅出 React 和 Redux',
    type: 'React',
    points: 30,
    intro: '<p>从组件设计到状态管理，讲清楚 React 与 Redux 在大型应用中的组织方式。</p>',
    reviews: ['<p>Redux 部分有点过时了，思路还是值得学。</p>'],
  },
  {
    title: 'React 设计原理',
    type: 'React',
    points: 40,
    intro: '<p>剖析 Fiber 架构、调度器与 Hooks 的实现，理解 React 为何这样设计。</p><ul><li>双缓存 Fiber 树</li><li>Lane 优先级模型</li><li>Hooks 链表</li></ul>',
    reviews: ['<p>看完再看源码轻松多了。</p>', '<p>需要一定基础，新手慎入。</p>'],
  },
  {
    title: 'React 状态管理实战',
    type: 'React',
    points: 20,
    intro: '<p>比较 Context、Redux Toolkit、Zustand 与 React Query，给出不同场景下的选择建议。</p>',
    reviews: [],
  },
  {
    title: 'Vue.js 设计与实现',
    type: 'Vue',
    points: 40,
    intro: '<p>从响应式系统、渲染器到编译器，一步步实现一个迷你版 Vue 3。</p>',
    reviews: ['<p>霍老师的书，质量没得说。</p>', '<p>响应式那几章反复看了三遍。</p>'],
  },
  {
    title: 'Vue 3 企业级项目实战',
    type: 'Vue',
    points: 20,
    intro: '<p>基于 Vite、Pinia 与 Vue Router，完成一个带权限的后台管理系统。</p>',
    reviews: ['<p>项目结构可以直接拿来参考。</p>'],
  },
  {
    title: '深入浅出 Node.js',
    type: 'Node.js',
    points: 30,
    intro: '<p>从异步 I/O、事件循环到内存控制与进程管理，系统介绍 Node.js 的原理。</p>',
    reviews: ['<p>虽然版本老了，原理部分依然经典。</p>'],
  },
  {
    title: 'Node.js 实战（第2版）',
    type: 'Node.js',
    points: 20,
    intro: '<p>用 Express、Koa 与 Fastify 编写 Web 服务，涵盖测试、部署与性能调优。</p>',
    reviews: ['<p>部署那章对新手很友好。</p>'],
  },
  {
    title: 'Node.js 设计模式（第3版）',
    type: 'Node.js',
    points: 40,
    intro: '<p>流、异步控制流、模块系统与可扩展架构，写出易维护的 Node.js 代码。</p><pre><code class="language-js">await pipeline(source, transform, destination);</code></pre>',
    reviews: [],
  },
  {
    title: '高性能 MySQL（第4版）',
    type: '数据库',
    points: 40,
    intro: '<p>索引、查询优化、复制与高可用，MySQL 从业者的案头书。</p>',
    reviews: ['<p>索引那章建议每个后端都读一读。</p>', '<p>翻译质量不错。</p>'],
  },
  {
    title: 'Redis 设计与实现',
    type: '数据库',
    points: 30,
    intro: '<p>从数据结构到持久化、复制与集群，逐行解读 Redis 的内部实现。</p>',
    reviews: ['<p>跳表和字典的实现讲得很细。</p>'],
  },
];

export interface DemoInterview {
  title: string;
  type: TypeName;
  content: string;
}

export const INTERVIEWS: DemoInterview[] = [
  {
    title: 'HTML 语义化是什么？有什么好处？',
    type: 'HTML',
    content: '<p>语义化是用恰当的标签表达内容的含义，例如用 <code>&lt;nav&gt;</code> 表示导航、<code>&lt;article&gt;</code> 表示独立的文章。</p><ul><li>读屏软件能正确朗读结构</li><li>搜索引擎更容易理解页面</li><li>代码更易读、易维护</li></ul>',
  },
  {
    title: 'script 标签的 defer 和 async 有什么区别？',
    type: 'HTML',
    content: '<p>两者都不会阻塞 HTML 解析。<code>async</code> 下载完立即执行，顺序不定；<code>defer</code> 等文档解析完成后按出现顺序执行。</p><pre><code class="language-html">&lt;script src="a.js" defer&gt;&lt;/script&gt;\n&lt;script src="b.js" async&gt;&lt;/script&gt;</code></pre>',
  },
  {
    title: '什么是 BFC？如何触发？',
    type: 'CSS',
    content: '<p>BFC（块级格式化上下文）是一块独立的渲染区域，内部元素的布局不会影响外部。</p><p>常见触发方式：</p><pre><code class="language-css">.box {\n  overflow: hidden;   /* 或 auto */\n  display: flow-root; /* 最干净的方式 */\n}</code></pre><p>用途：清除浮动、避免外边距合并。</p>',
  },
  {
    title: '如何让一个元素水平垂直居中？',
    type: 'CSS',
    content: '<p>最常用的两种写法：</p><pre><code class="language-css">.parent {\n  display: flex;\n  justify-content: center;\n  align-items: center;\n}\n\n.parent-grid {\n  display: grid;\n  place-items: center;\n}</code></pre><p>已知宽高时也可以用绝对定位配合 <code>transform: translate(-50%, -50%)</code>。</p>',
  },
  {
    title: 'CSS 选择器的优先级是怎样计算的？',
    type: 'CSS',
    content: '<p>按 (内联, ID, 类/属性/伪类, 元素/伪元素) 四元组从左到右比较，<code>!important</code> 最高。</p><pre><code class="language-css">#nav .item a      /* (0,1,1,1) */\n.nav .item:hover  /* (0,0,3,0) */</code></pre>',
  },
  {
    title: '什么是闭包？闭包有哪些常见用途？',
    type: 'JavaScript',
    content: '<p>闭包是函数与其定义时所在词法作用域的组合：函数离开了这个作用域，仍然能访问其中的变量。</p><pre><code class="language-js">function createCounter() {\n  let count = 0;\n  return () =&gt; ++count;\n}\nconst next = createCounter();\nnext(); // 1\nnext(); // 2</code></pre><p>常见用途：数据私有化、函数工厂、防抖与节流。</p>',
  },
  {
    title: '说说事件循环中宏任务与微任务的执行顺序',
    type: 'JavaScript',
    content: '<p>执行完一个宏任务后，会清空当前所有的微任务，然后才渲染并取下一个宏任务。</p><pre><code class="language-js">setTimeout(() =&gt; console.log(1));\nPromise.resolve().then(() =&gt; console.log(2));\nconsole.log(3);\n// 输出：3 2 1</code></pre>',
  },
  {
    title: 'var、let 和 const 有什么区别？',
    type: 'JavaScript',
    content: '<ul><li><code>var</code> 是函数作用域，存在变量提升，可重复声明</li><li><code>let</code>、<code>const</code> 是块级作用域，有暂时性死区</li><li><code>const</code> 声明后不能重新赋值（对象内部仍可修改）</li></ul><pre><code class="language-js">for (var i = 0; i &lt; 3; i++) setTimeout(() =&gt; console.log(i)); // 3 3 3\nfor (let j = 0; j &lt; 3; j++) setTimeout(() =&gt; console.log(j)); // 0 1 2</code></pre>',
  },
  {
    title: '手写一个防抖函数',
    type: 'JavaScript',
    content: '<p>防抖：事件停止触发一段时间后才执行一次。</p><pre><code class="language-js">function debounce(fn, wait = 300) {\n  let timer = null;\n  return function (...args) {\n    clearTimeout(timer);\n    timer = setTimeout(() =&gt; fn.apply(this, args), wait);\n  };\n}</code></pre><p>常用于搜索框输入、窗口 resize。</p>',
  },
  {
    title: 'Promise.all 和 Promise.allSettled 的区别',
    type: 'JavaScript',
    content: '<p><code>Promise.all</code> 只要有一个失败就立即失败；<code>Promise.allSettled</code> 等全部结束，返回每一项的状态。</p><pre><code class="language-js">const results = await Promise.allSettled([fetchA(), fetchB()]);\nresults.filter((r) =&gt; r.status === \'rejected\');</code></pre>',
  },
  {
    title: '== 和 === 有什么区别？',
    type: 'JavaScript',
    content: '<p><code>===</code> 不做类型转换，类型和值都相同才相等；<code>==</code> 会先做隐式类型转换。</p><pre><code class="language-js">0 == \'\';        // true\n0 === \'\';       // false\nnull == undefined; // true</code></pre><p>除了判断 <code>null</code>/<code>undefined</code>，建议一律使用 <code>===</code>。</p>',
  },
  {
    title: 'useEffect 和 useLayoutEffect 有什么区别？',
    type: 'React',
    content: '<p><code>useLayoutEffect</code> 在 DOM 更新后、浏览器绘制前同步执行；<code>useEffect</code> 在绘制之后异步执行。</p><pre><code class="language-jsx">useLayoutEffect(() =&gt; {\n  // 读取布局并同步修改，避免闪烁\n  const { height } = ref.current.getBoundingClientRect();\n  setHeight(height);\n}, []);</code></pre>',
  },
  {
    title: '为什么列表渲染需要 key？能用 index 吗？',
    type: 'React',
    content: '<p>key 帮助 React 在 diff 时识别哪些元素是同一个，从而复用节点和状态。</p><p>列表会增删或排序时不要用 index，否则状态会错位：</p><pre><code class="language-jsx">{todos.map((todo) =&gt; (\n  &lt;TodoItem key={todo.id} todo={todo} /&gt;\n))}</code></pre>',
  },
  {
    title: 'React 中如何避免不必要的重新渲染？',
    type: 'React',
    content: '<ul><li>用 <code>React.memo</code> 包裹纯展示组件</li><li>用 <code>useMemo</code>、<code>useCallback</code> 保持引用稳定</li><li>把状态下放到真正需要它的组件</li></ul><pre><code class="language-jsx">const Row = React.memo(function Row({ item, onSelect }) {\n  return &lt;li onClick={() =&gt; onSelect(item.id)}&gt;{item.name}&lt;/li&gt;;\n});</code></pre>',
  },
  {
    title: '受控组件和非受控组件的区别',
    type: 'React',
    content: '<p>受控组件的值由 React state 决定，通过 <code>onChange</code> 更新；非受控组件的值保存在 DOM 中，用 ref 读取。</p><pre><code class="language-jsx">const [name, setName] = useState(\'\');\n&lt;input value={name} onChange={(e) =&gt; setName(e.target.value)} /&gt;</code></pre>',
  },
  {
    title: 'Vue 3 的响应式原理是什么？',
    type: 'Vue',
    content: '<p>Vue 3 用 <code>Proxy</code> 拦截对象的读写：读取时收集依赖（track），写入时触发更新（trigger）。</p><pre><code class="language-js">const state = reactive({ count: 0 });\neffect(() =&gt; console.log(state.count)); // 收集依赖\nstate.count++; // 触发 effect 重新执行</code></pre>',
  },
  {
    title: 'computed 和 watch 有什么区别？',
    type: 'Vue',
    content: '<p><code>computed</code> 是有缓存的派生值，依赖不变就不会重新计算；<code>watch</code> 用于在数据变化时执行副作用，例如请求接口。</p><pre><code class="language-js">const fullName = computed(() =&gt; `${first.value} ${last.value}`);\nwatch(keyword, (value) =&gt; search(value));</code></pre>',
  },
  {
    title: 'Node.js 的事件循环分为哪几个阶段？',
    type: 'Node.js',
    content: '<p>timers → pending callbacks → idle/prepare → poll → check → close callbacks。</p><pre><code class="language-js">setImmediate(() =&gt; console.log(\'immediate\'));\nsetTimeout(() =&gt; console.log(\'timeout\'), 0);\nprocess.nextTick(() =&gt; console.log(\'nextTick\'));\n// nextTick 总是最先输出</code></pre>',
  },
  {
    title: '如何用 Stream 处理一个很大的文件？',
    type: 'Node.js',
    content: '<p>不要一次性读入内存，用流逐块处理，并用 <code>pipeline</code> 正确处理错误和背压。</p><pre><code class="language-js">const { pipeline } = require(\'node:stream/promises\');\nawait pipeline(\n  fs.createReadStream(\'big.log\'),\n  zlib.createGzip(),\n  fs.createWriteStream(\'big.log.gz\'),\n);</code></pre>',
  },
  {
    title: '数据库索引为什么通常使用 B+ 树？',
    type: '数据库',
    content: '<p>B+ 树矮胖，一次磁盘读取能取到很多键，查询只需很少次 I/O；叶子节点链表相连，范围查询很快。</p><pre><code class="language-sql">CREATE INDEX idx_user_register ON users (register_date DESC);\nEXPLAIN SELECT * FROM users WHERE register_date &gt; now() - interval \'7 days\';</code></pre>',
  },
];

export interface DemoIssue {
  title: string;
  type: TypeName;
  content: string;
  /** false: still waiting for review. */
  approved: boolean;
  /** Replies from other users, shown as the issue's comments. */
  replies: string[];
}

export const ISSUES: DemoIssue[] = [
  {
    title: '为什么我的 flex 子元素设置了 width 还是被压缩？',
    type: 'CSS',
    approved: true,
    content: '<p>父元素 <code>display: flex</code>，子元素写了 <code>width: 300px</code>，屏幕窄的时候还是会变窄，怎么让它保持宽度？</p>',
    replies: ['<p>给子元素加 <code>flex-shrink: 0</code> 就不会被压缩了。</p>', '<p>或者直接写 <code>flex: 0 0 300px</code>。</p>'],
  },
  {
    title: 'position: sticky 不生效是什么原因？',
    type: 'CSS',
    approved: true,
    content: '<p>给表头设置了 <code>position: sticky; top: 0;</code>，滚动时完全没效果。</p>',
    replies: ['<p>检查一下祖先元素有没有 <code>overflow: hidden</code>，有的话 sticky 会失效。</p>', '<p>还有父元素高度不够也会看起来不生效。</p>'],
  },
  {
    title: '移动端 1px 边框怎么实现？',
    type: 'CSS',
    approved: true,
    content: '<p>在 Retina 屏上 <code>border: 1px</code> 看起来很粗，大家一般怎么处理？</p>',
    replies: ['<p>伪元素加 <code>transform: scaleY(0.5)</code> 是最通用的方案。</p>'],
  },
  {
    title: 'async 函数里的 forEach 为什么不等待？',
    type: 'JavaScript',
    approved: true,
    content: '<p>下面的代码「完成」会先打印，请求还没结束：</p><pre><code class="language-js">async function run(ids) {\n  ids.forEach(async (id) =&gt; {\n    await save(id);\n  });\n  console.log(\'完成\');\n}</code></pre>',
    replies: ['<p>forEach 不会等待回调返回的 Promise，改用 <code>for...of</code>。</p>', '<p>要并发的话用 <code>await Promise.all(ids.map(save))</code>。</p>', '<p>学到了，原来如此。</p>'],
  },
  {
    title: '0.1 + 0.2 为什么不等于 0.3？',
    type: 'JavaScript',
    approved: true,
    content: '<p>控制台输出 <code>0.30000000000000004</code>，做金额计算的时候出了问题，应该怎么处理？</p>',
    replies: ['<p>浮点数的二进制精度问题。金额建议用「分」存整数。</p>', '<p>可以看看 decimal.js 这类库。</p>'],
  },
  {
    title: '深拷贝有没有比 JSON.parse(JSON.stringify()) 更好的办法？',
    type: 'JavaScript',
    approved: true,
    content: '<p>JSON 的办法会丢掉 <code>Date</code>、<code>undefined</code> 和函数，还有循环引用会报错。</p>',
    replies: ['<p>现在浏览器和 Node 都有 <code>structuredClone</code> 了。</p>'],
  },
  {
    title: '箭头函数里的 this 到底指向哪里？',
    type: 'JavaScript',
    approved: true,
    content: '<p>对象方法写成箭头函数后，<code>this</code> 变成了 <code>undefined</code>，不太理解。</p><pre><code class="language-js">const user = {\n  name: \'小明\',\n  hello: () =&gt; console.log(this.name),\n};</code></pre>',
    replies: ['<p>箭头函数没有自己的 this，用的是定义时外层的 this。</p>', '<p>对象方法用普通函数或简写方法就行。</p>'],
  },
  {
    title: '如何取消一个正在进行的 fetch 请求？',
    type: 'JavaScript',
    approved: true,
    content: '<p>搜索框连续输入时想取消上一次请求，fetch 能做到吗？</p>',
    replies: ['<p>用 <code>AbortController</code>，把 signal 传给 fetch。</p>'],
  },
  {
    title: '正则怎么匹配中文字符？',
    type: 'JavaScript',
    approved: false,
    content: '<p>想校验昵称只能是中文、字母和数字，正则应该怎么写？</p>',
    replies: [],
  },
  {
    title: 'useState 更新后立刻打印还是旧值？',
    type: 'React',
    approved: true,
    content: '<pre><code class="language-jsx">const [count, setCount] = useState(0);\nconst add = () =&gt; {\n  setCount(count + 1);\n  console.log(count); // 还是 0\n};</code></pre><p>这是 bug 吗？</p>',
    replies: ['<p>不是 bug，state 在下一次渲染才更新。</p>', '<p>需要基于上一次的值更新时用函数式写法 <code>setCount((c) =&gt; c + 1)</code>。</p>'],
  },
  {
    title: 'useEffect 为什么执行了两次？',
    type: 'React',
    approved: true,
    content: '<p>开发环境下，组件挂载时 <code>useEffect</code> 里的请求发了两次，生产环境正常。</p>',
    replies: ['<p>React 18 的 StrictMode 会在开发环境故意挂载两次，检查副作用有没有正确清理。</p>'],
  },
  {
    title: 'React 列表删除一项后输入框内容错位',
    type: 'React',
    approved: true,
    content: '<p>列表每行有个输入框，删除第一行后，第二行的输入内容跑到了第一行。</p>',
    replies: ['<p>一看就是用了 index 当 key。</p>', '<p>换成数据里唯一的 id 就好。</p>'],
  },
  {
    title: 'Context 更新导致整个页面重新渲染怎么办？',
    type: 'React',
    approved: false,
    content: '<p>把用户信息和主题放在同一个 Context 里，切换主题时所有组件都重新渲染了。</p>',
    replies: [],
  },
  {
    title: 'React Router v6 怎么做登录拦截？',
    type: 'React',
    approved: true,
    content: '<p>v6 没有 <code>Redirect</code> 了，未登录时想跳到登录页，应该怎么写？</p>',
    replies: ['<p>写一个包裹组件，未登录时返回 <code>&lt;Navigate to="/login" replace /&gt;</code>。</p>'],
  },
  {
    title: 'Vue 3 中 ref 和 reactive 该怎么选？',
    type: 'Vue',
    approved: true,
    content: '<p>看到有人说全部用 <code>ref</code>，也有人说对象用 <code>reactive</code>，有没有统一的建议？</p>',
    replies: ['<p>官方现在推荐优先用 ref，解构也不会丢响应性。</p>', '<p>我们团队规定只用 ref，代码风格统一。</p>'],
  },
  {
    title: 'v-for 和 v-if 为什么不能一起用？',
    type: 'Vue',
    approved: true,
    content: '<p>ESLint 提示不要在同一个元素上同时用 <code>v-for</code> 和 <code>v-if</code>。</p>',
    replies: ['<p>Vue 3 里 v-if 优先级更高，拿不到循环变量；先用 computed 过滤。</p>'],
  },
  {
    title: 'Pinia 的 store 解构后失去响应性',
    type: 'Vue',
    approved: false,
    content: '<pre><code class="language-js">const { count } = useCounterStore();\n// 模板里 count 不会更新</code></pre>',
    replies: [],
  },
  {
    title: 'Node.js 如何读取 POST 请求体？',
    type: 'Node.js',
    approved: true,
    content: '<p>用原生 <code>http</code> 模块写服务，<code>req.body</code> 是 <code>undefined</code>。</p>',
    replies: ['<p>原生 http 需要自己监听 data 和 end 事件拼接。</p>', '<p>用框架吧，Fastify 自带 JSON 解析。</p>'],
  },
  {
    title: 'npm install 报 EACCES 权限错误',
    type: 'Node.js',
    approved: true,
    content: '<p>全局安装包时报 <code>EACCES: permission denied</code>，用 sudo 可以，但听说不推荐。</p>',
    replies: ['<p>用 nvm 安装 Node，全局包就装在用户目录下了。</p>'],
  },
  {
    title: 'require 和 import 能混用吗？',
    type: 'Node.js',
    approved: true,
    content: '<p>项目是 CommonJS，想引入一个只提供 ESM 的包，报 <code>ERR_REQUIRE_ESM</code>。</p>',
    replies: ['<p>可以用动态 <code>import()</code>，或者把项目迁到 ESM。</p>', '<p>新版本 Node 已经支持 require 同步的 ESM 了，可以升级试试。</p>'],
  },
  {
    title: 'PM2 部署后进程不停重启',
    type: 'Node.js',
    approved: false,
    content: '<p>本地 <code>node app.js</code> 正常，PM2 启动后一直 restart，日志里什么都没有。</p>',
    replies: [],
  },
  {
    title: 'MySQL 的 LIKE 查询很慢怎么优化？',
    type: '数据库',
    approved: true,
    content: '<p>用户表几百万行，<code>WHERE nickname LIKE \'%张%\'</code> 要好几秒。</p>',
    replies: ['<p>前后都有 % 用不上普通索引，考虑全文索引或者搜索引擎。</p>', '<p>PostgreSQL 的话可以用 pg_trgm 的 GIN 索引。</p>'],
  },
  {
    title: '分页查询越往后越慢是什么原因？',
    type: '数据库',
    approved: true,
    content: '<pre><code class="language-sql">SELECT * FROM orders ORDER BY id DESC LIMIT 20 OFFSET 100000;</code></pre><p>OFFSET 大了以后特别慢。</p>',
    replies: ['<p>OFFSET 要先扫描并丢弃前面的行，可以改成按上一页最后的 id 继续查。</p>'],
  },
  {
    title: 'Redis 缓存和数据库怎么保证一致？',
    type: '数据库',
    approved: false,
    content: '<p>先更新数据库再删缓存，还是先删缓存再更新数据库？</p>',
    replies: [],
  },
  {
    title: 'img 标签下方总有一条空隙',
    type: 'HTML',
    approved: true,
    content: '<p>图片放在 div 里，底部多出几个像素的空白，margin 和 padding 都是 0。</p>',
    replies: ['<p>img 是行内元素，按基线对齐留出了空间；设 <code>display: block</code> 或 <code>vertical-align: top</code>。</p>'],
  },
  {
    title: '表单里的 button 点击后页面刷新了',
    type: 'HTML',
    approved: true,
    content: '<p>在 form 里放了一个按钮，点击后页面直接刷新了，我没写提交逻辑。</p>',
    replies: ['<p>button 默认 type 是 submit，写成 <code>type="button"</code>。</p>', '<p>哈哈，我也踩过这个坑。</p>'],
  },
  {
    title: 'meta viewport 应该怎么写？',
    type: 'HTML',
    approved: false,
    content: '<p>移动端页面在手机上显示很小，需要加什么 meta？</p>',
    replies: [],
  },
  {
    title: '前端怎么实现大文件分片上传？',
    type: 'JavaScript',
    approved: false,
    content: '<p>要上传 2GB 的视频，直接传经常超时，想做分片和断点续传。</p>',
    replies: [],
  },
  {
    title: 'TypeScript 里 interface 和 type 的区别',
    type: 'JavaScript',
    approved: true,
    content: '<p>两者好像都能定义对象类型，实际项目里怎么选？</p>',
    replies: ['<p>需要声明合并或被类 implements 时用 interface，联合类型只能用 type。</p>'],
  },
  {
    title: 'Vite 打包后页面白屏',
    type: 'Vue',
    approved: false,
    content: '<p><code>npm run build</code> 后部署到子路径，打开是白屏，控制台报资源 404。</p>',
    replies: [],
  },
];

/** Short remarks that fit under any question; spread over the approved issues. */
export const GENERIC_REPLIES: string[] = [
  '<p>同问，遇到了一模一样的情况。</p>',
  '<p>楼上正解，亲测有效。</p>',
  '<p>感谢分享，已收藏。</p>',
  '<p>补充一下：记得看看官方文档对应的章节，讲得很清楚。</p>',
  '<p>我之前也是这么解决的。</p>',
  '<p>能贴一下完整的报错信息吗？</p>',
  '<p>这个问题面试也经常问。</p>',
  '<p>试了一下确实可以，谢谢！</p>',
  '<p>MDN 上有详细说明，可以搜一下。</p>',
  '<p>建议写个最小复现放到在线编辑器里，大家好帮你看。</p>',
  '<p>mark 一下，等大佬解答。</p>',
  '<p>原来是这个原因，涨知识了。</p>',
];

/** Short reader remarks that fit under any book; spread over the books. */
export const GENERIC_REVIEWS: string[] = [
  '<p>下载链接有效，感谢分享。</p>',
  '<p>已经下载，准备这个月读完。</p>',
  '<p>有没有更新的版本？</p>',
  '<p>排版很清晰，比扫描版好太多。</p>',
  '<p>推荐配合书里的示例代码一起练。</p>',
  '<p>积分有点贵，不过内容值得。</p>',
  '<p>同事推荐的，确实不错。</p>',
  '<p>读了一半，收获很大。</p>',
  '<p>适合有一定基础的同学。</p>',
  '<p>经典好书，常读常新。</p>',
];
