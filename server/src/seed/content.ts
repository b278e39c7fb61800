/**
 * Demo content: realistic Chinese text for a programmer community. Each book, interview question
 * and issue is one template whose title, text and type belong together, and each issue template
 * carries the answers that fit it, so a seeded row never mixes topics (a PostgreSQL question with
 * a Go description under JavaScript). The seed picks templates by hashing the row number, so any
 * size of data set can be made in SQL.
 */

export const TYPE_NAMES = [
  'HTML',
  'CSS',
  'JavaScript',
  'TypeScript',
  'React',
  'Vue',
  '前端工程化',
  'Node.js',
  'Go',
  'Java',
  'Python',
  '数据库',
  '算法',
] as const;
export type TypeName = (typeof TYPE_NAMES)[number];

export const SURNAMES = [
  '王',
  '李',
  '张',
  '刘',
  '陈',
  '杨',
  '黄',
  '赵',
  '吴',
  '周',
  '徐',
  '孙',
  '马',
  '朱',
  '胡',
  '郭',
  '何',
  '林',
  '高',
  '罗',
  '郑',
  '梁',
  '谢',
  '宋',
  '唐',
  '许',
  '韩',
  '冯',
  '邓',
  '曹',
];
export const GIVEN_NAMES = [
  '伟',
  '芳',
  '娜',
  '敏',
  '静',
  '磊',
  '强',
  '洋',
  '艳',
  '杰',
  '娟',
  '涛',
  '明',
  '超',
  '秀英',
  '霞',
  '平',
  '刚',
  '桂英',
  '子轩',
  '梓涵',
  '浩然',
  '一诺',
  '思远',
  '雨桐',
  '俊杰',
  '欣怡',
  '宇航',
  '佳琪',
  '晨曦',
];
export const NICK_PREFIXES = ['前端', '全栈', '后端', '爱写代码的', '不秃头的', '摸鱼的', '熬夜的', '快乐的', '认真的', '努力的'];
export const NICK_SUFFIXES = ['小白', '工程师', '程序员', '码农', '架构师', '实习生', '极客', '开发者', '学徒', '老兵'];

export const INTROS = [
  '热爱前端，正在系统地学习 React 和 TypeScript。',
  '五年 Java 后端，最近在转 Go，欢迎交流。',
  '在校大学生，计算机专业，目标是进一家好公司做前端。',
  '喜欢研究浏览器原理和性能优化。',
  '全栈开发者，Node.js 和 Vue 用得比较多。',
  '数据库爱好者，专注 PostgreSQL 调优。',
  '算法刷题中，每天至少一道 LeetCode。',
  '',
  '做过几年运维，现在写 Python 自动化脚本。',
  '独立开发者，正在做自己的小产品。',
];

export const BOOKS: Array<{ type: TypeName; title: string; intro: string }> = [
  {
    type: 'JavaScript',
    title: 'JavaScript 高级程序设计（第4版）',
    intro: '<p>全面讲解 JavaScript 语言核心与浏览器环境，涵盖 ES6+ 新特性、DOM、事件、网络请求与模块化。</p>',
  },
  {
    type: 'JavaScript',
    title: '你不知道的 JavaScript（上卷）',
    intro: '<p>深入作用域、闭包、this 与原型，帮你真正理解 JavaScript 的运行机制。</p>',
  },
  { type: 'Node.js', title: '深入浅出 Node.js', intro: '<p>从异步 I/O、事件循环到内存控制与进程管理，系统介绍 Node.js 的原理与实践。</p>' },
  { type: 'CSS', title: 'CSS 世界', intro: '<p>以流、元素与基本尺寸为主线，讲透 CSS 布局背后的规则。</p>' },
  { type: 'HTML', title: 'HTML5 权威指南', intro: '<p>系统介绍 HTML5 的语义化标签、表单、多媒体与 Canvas，以及可访问性的基本要求。</p>' },
  {
    type: 'TypeScript',
    title: 'TypeScript 编程',
    intro: '<p>从类型系统基础到高级类型、泛型与声明文件，适合有 JS 基础的开发者学习 TypeScript。</p>',
  },
  { type: 'React', title: 'React 设计原理', intro: '<p>剖析 React 的 Fiber 架构、调度与 Hooks 实现，理解框架为何这样设计。</p>' },
  { type: 'Vue', title: 'Vue.js 设计与实现', intro: '<p>从响应式系统、渲染器到编译器，手把手实现一个迷你版 Vue 3。</p>' },
  { type: 'Go', title: 'Go 语言圣经', intro: '<p>Go 语言的经典入门与进阶读物，涵盖 goroutine 并发、接口与反射。</p>' },
  { type: 'Java', title: 'Effective Java（第3版）', intro: '<p>90 条 Java 编程的最佳实践，写出更清晰、更健壮的代码。</p>' },
  { type: 'Python', title: '流畅的 Python', intro: '<p>深入 Python 数据模型、迭代器、协程与元编程，写出地道的 Python。</p>' },
  { type: '数据库', title: 'PostgreSQL 实战', intro: '<p>覆盖索引、执行计划、事务隔离与高可用部署的 PostgreSQL 数据库实践指南。</p>' },
  { type: '算法', title: '算法（第4版）', intro: '<p>系统讲解排序、查找、图与字符串算法，配有大量可运行的代码。</p>' },
  { type: '前端工程化', title: '前端工程化：体系设计与实践', intro: '<p>从脚手架、构建工具到 CI/CD 与监控，搭建完整的前端工程体系。</p>' },
  {
    type: 'JavaScript',
    title: '重构：改善既有代码的设计（第2版）',
    intro: '<p>第 2 版的示例全部改用 JavaScript：识别代码坏味道，并用安全的小步重构持续改善设计。</p>',
  },
  { type: 'Java', title: '代码整洁之道', intro: '<p>以 Java 代码为例讲命名、函数、注释与测试：写出让同事愿意读的代码。</p>' },
];

/** What readers say under a book: about the book itself, whatever its subject. */
export const BOOK_COMMENTS = [
  '<p>这本书我看了两遍，第二遍收获更大。</p>',
  '<p>下载链接失效了，能更新一下吗？</p>',
  '<p>讲得很清楚，收藏了！</p>',
  '<p>请问有配套的练习题吗？</p>',
  '<p>适合有一定基础的人看，新手建议先读入门书。</p>',
  '<p>翻译质量不错，读起来很顺。</p>',
  '<p>书里的示例代码都亲手敲了一遍，理解深刻多了。</p>',
];

export const INTERVIEWS: Array<{ type: TypeName; title: string; content: string }> = [
  {
    type: 'JavaScript',
    title: '什么是闭包？闭包有哪些常见用途？',
    content:
      '<p>闭包是指函数能够记住并访问它定义时所在的词法作用域，即使函数在该作用域之外执行。</p><pre><code class="language-js">function counter() {\n  let n = 0;\n  return () =&gt; ++n;\n}\nconst next = counter();\nnext(); // 1\nnext(); // 2</code></pre><p>常见用途：数据私有化、函数工厂、防抖与节流。</p>',
  },
  {
    type: 'JavaScript',
    title: '说说事件循环（Event Loop）中宏任务与微任务的执行顺序',
    content:
      '<p>每执行完一个宏任务，就清空当前所有微任务，然后才进行渲染和下一个宏任务。</p><pre><code class="language-js">setTimeout(() =&gt; console.log(1));\nPromise.resolve().then(() =&gt; console.log(2));\nconsole.log(3);\n// 输出：3 2 1</code></pre>',
  },
  {
    type: 'React',
    title: 'React 中 useEffect 和 useLayoutEffect 有什么区别？',
    content:
      '<p><code>useLayoutEffect</code> 在 DOM 变更后、浏览器绘制前同步执行；<code>useEffect</code> 在绘制之后异步执行。需要测量布局并同步修改时用前者，其余情况优先用后者。</p>',
  },
  {
    type: 'CSS',
    title: 'CSS 如何实现一个元素的水平垂直居中？',
    content:
      '<p>最常用的是 Flex 布局：</p><pre><code class="language-css">.parent {\n  display: flex;\n  justify-content: center;\n  align-items: center;\n}</code></pre><p>也可以使用 Grid 的 <code>place-items: center</code>，或绝对定位配合 <code>transform: translate(-50%, -50%)</code>。</p>',
  },
  {
    type: 'Vue',
    title: 'Vue 3 的响应式原理和 Vue 2 有什么不同？',
    content:
      '<p>Vue 2 使用 <code>Object.defineProperty</code> 劫持已有属性，无法检测新增属性和数组下标；Vue 3 使用 <code>Proxy</code> 代理整个对象，按需递归，性能和能力都更好。</p><pre><code class="language-js">const state = reactive({ count: 0 });\neffect(() =&gt; console.log(state.count));\nstate.count++; // 触发 effect</code></pre>',
  },
  {
    type: 'TypeScript',
    title: 'TypeScript 中 interface 和 type 的区别是什么？',
    content:
      "<p>两者都能描述对象形状。<code>interface</code> 可以声明合并、适合描述公共 API；<code>type</code> 能表示联合类型、元组和映射类型。</p><pre><code class=\"language-ts\">type Status = 'ok' | 'error';\ninterface User { id: string; name: string }</code></pre>",
  },
  {
    type: 'Node.js',
    title: 'Node.js 中如何处理 CPU 密集型任务而不阻塞事件循环？',
    content:
      "<p>可以使用 <code>worker_threads</code> 把计算放到工作线程，或拆分任务用 <code>setImmediate</code> 让出事件循环，或交给独立的服务处理。</p><pre><code class=\"language-js\">const { Worker } = require('node:worker_threads');\nnew Worker('./heavy.js', { workerData: input });</code></pre>",
  },
  {
    type: '数据库',
    title: '数据库索引为什么能加快查询？什么时候索引会失效？',
    content:
      "<p>B+ 树索引让查找从全表扫描变为对数级的树查找。对索引列使用函数、隐式类型转换、前导模糊匹配（<code>LIKE '%abc'</code>）或不满足最左前缀时，索引可能无法使用。</p><pre><code class=\"language-sql\">CREATE INDEX idx_user_name ON users (name);\nEXPLAIN SELECT * FROM users WHERE name = '张三';</code></pre>",
  },
  {
    type: 'Go',
    title: 'Go 语言中 goroutine 泄漏通常是怎么发生的？',
    content:
      '<p>最常见的是 goroutine 阻塞在没有人读写的 channel 上。用 <code>context</code> 控制生命周期可以避免：</p><pre><code class="language-go">select {\ncase v := &lt;-ch:\n    handle(v)\ncase &lt;-ctx.Done():\n    return\n}</code></pre>',
  },
  {
    type: 'JavaScript',
    title: '手写一个防抖（debounce）函数',
    content:
      '<pre><code class="language-js">function debounce(fn, wait) {\n  let timer;\n  return function (...args) {\n    clearTimeout(timer);\n    timer = setTimeout(() =&gt; fn.apply(this, args), wait);\n  };\n}</code></pre><p>防抖适合搜索框输入、窗口 resize 等高频触发的场景。</p>',
  },
  {
    type: '前端工程化',
    title: '前端部署时如何利用 HTTP 缓存？强缓存和协商缓存有什么区别？',
    content:
      '<p>强缓存由 <code>Cache-Control</code>/<code>Expires</code> 控制，命中时不发请求；协商缓存通过 <code>ETag</code>/<code>Last-Modified</code> 向服务器确认，未变化时返回 304。</p><p>构建时给静态资源的文件名加上内容哈希，就能对它们设置长期的强缓存，而 index.html 走协商缓存。</p>',
  },
  {
    type: 'Java',
    title: 'Java 中 HashMap 的底层结构是怎样的？',
    content: '<p>JDK 8 起是数组 + 链表 + 红黑树：哈希冲突的链表长度超过 8 且数组长度不小于 64 时转为红黑树，扩容时容量翻倍并重新分布。</p>',
  },
  {
    type: 'HTML',
    title: '什么是 HTML 语义化？有什么好处？',
    content:
      '<p>用 <code>&lt;header&gt;</code>、<code>&lt;nav&gt;</code>、<code>&lt;main&gt;</code>、<code>&lt;article&gt;</code> 等标签表达内容的含义，而不是全部用 <code>&lt;div&gt;</code>。好处：读屏软件能正确导航，搜索引擎更好理解页面，代码也更易读。</p>',
  },
  {
    type: 'Python',
    title: 'Python 装饰器是怎么工作的？',
    content:
      '<p>装饰器是一个接收函数并返回新函数的可调用对象，<code>@</code> 语法只是 <code>f = deco(f)</code> 的简写。</p><pre><code class="language-python">def log(fn):\n    def wrapper(*args, **kwargs):\n        print(fn.__name__)\n        return fn(*args, **kwargs)\n    return wrapper</code></pre>',
  },
  {
    type: '算法',
    title: '快速排序的平均和最坏时间复杂度是多少？如何避免最坏情况？',
    content: '<p>平均 O(n log n)，最坏 O(n²)（每次选到最大或最小值作为基准）。随机选择基准或三数取中可以让最坏情况几乎不会出现。</p>',
  },
];

/** Replies that suit any question: the rest of an issue's comments are its own answers. */
export const ISSUE_REPLIES = [
  '<p>同问，蹲一个答案。</p>',
  '<p>建议先写个最小复现的例子，更容易定位问题。</p>',
  '<p>可以看看官方文档里关于这一节的说明，写得很详细。</p>',
  '<p>感谢各位的回答，问题已经解决了。</p>',
];

export const ISSUES: Array<{ type: TypeName; title: string; content: string; answers: string[] }> = [
  {
    type: 'React',
    title: 'React 18 里 useEffect 为什么执行了两次？',
    content: '<p>开发环境下组件挂载后 <code>useEffect</code> 执行了两次，生产环境正常，这是正常现象吗？</p>',
    answers: [
      '<p>这是 React 18 严格模式（StrictMode）在开发环境下故意做的：挂载、卸载再挂载一次，用来检查 effect 的清理函数写得对不对。</p>',
      '<p>给 effect 返回一个清理函数，比如取消请求或移除监听，执行两次也不会有问题。</p>',
      '<p>生产构建不会重复执行，不用担心线上行为。</p>',
    ],
  },
  {
    type: 'Vue',
    title: 'Vue 3 的 ref 和 reactive 应该怎么选？',
    content: '<p>项目里两种写法混着用，有点乱，大家一般有什么约定？</p>',
    answers: [
      '<p>我们团队统一用 <code>ref</code>，基本类型和对象都能用，解构时也不容易丢失响应性。</p>',
      '<p><code>reactive</code> 适合一组相关的表单状态，但注意不能整体替换，也不要直接解构。</p>',
      '<p>Vue 官方文档现在也推荐优先使用 <code>ref</code>。</p>',
    ],
  },
  {
    type: 'Node.js',
    title: 'Node.js 读取大文件内存暴涨怎么办？',
    content:
      '<p>用 <code>fs.readFile</code> 读 2GB 的日志文件时进程直接崩了。</p><pre><code class="language-js">const data = fs.readFileSync(\'big.log\');</code></pre><p>有什么更好的办法？</p>',
    answers: [
      '<p>用流：<code>fs.createReadStream</code> 配合 <code>readline</code> 按行处理，内存占用基本是常数。</p>',
      '<pre><code class="language-js">const rl = readline.createInterface({ input: fs.createReadStream(\'big.log\') });\nfor await (const line of rl) handle(line);</code></pre>',
      '<p>如果还要写出结果，用 <code>stream.pipeline</code> 串起来，背压会自动处理。</p>',
    ],
  },
  {
    type: 'CSS',
    title: 'CSS 中 flex: 1 到底是什么意思？',
    content: '<p><code>flex: 1</code> 等价于哪三个属性？和 <code>flex: auto</code> 有什么区别？</p>',
    answers: [
      '<p><code>flex: 1</code> 等于 <code>flex-grow: 1; flex-shrink: 1; flex-basis: 0%</code>。</p>',
      '<p><code>flex: auto</code> 的 <code>flex-basis</code> 是 <code>auto</code>，会先按内容宽度分配，所以各项不一定等宽。</p>',
      '<p>想让几列严格等分，就用 <code>flex: 1</code>，再配合 <code>min-width: 0</code> 防止内容撑开。</p>',
    ],
  },
  {
    type: 'TypeScript',
    title: 'TypeScript 泛型约束报错：类型不满足约束',
    content:
      '<pre><code class="language-ts">function getKey&lt;T&gt;(obj: T, key: keyof T) {\n  return obj[key];\n}</code></pre><p>调用时提示类型不满足约束，应该怎么写？</p>',
    answers: [
      '<p>把键也作为泛型参数并加上约束：</p><pre><code class="language-ts">function getKey&lt;T, K extends keyof T&gt;(obj: T, key: K): T[K] {\n  return obj[key];\n}</code></pre>',
      '<p>这样返回值的类型也能精确推断为 <code>T[K]</code>。</p>',
    ],
  },
  {
    type: '数据库',
    title: 'PostgreSQL 分页越往后越慢怎么优化？',
    content: '<p><code>OFFSET 1000000</code> 的查询要好几秒，有没有更好的分页方式？</p>',
    answers: [
      '<p>OFFSET 需要先扫描并丢弃前面所有的行，越往后越慢。改用键集分页（keyset）：记住上一页最后一行的排序键。</p>',
      '<pre><code class="language-sql">SELECT * FROM issues WHERE id &lt; $1 ORDER BY id DESC LIMIT 10;</code></pre>',
      '<p>记得给排序列建索引，用 <code>EXPLAIN ANALYZE</code> 看一下是不是走了索引扫描。</p>',
    ],
  },
  {
    type: 'Go',
    title: 'Go 里 slice 作为参数传递会被修改吗？',
    content: '<p>在函数里 append 之后外面的 slice 没变，但修改元素外面却变了，为什么？</p>',
    answers: [
      '<p>slice 是一个包含指针、长度和容量的结构体，按值传递。修改元素改的是同一个底层数组，所以外面能看到。</p>',
      '<p><code>append</code> 超出容量时会分配新数组，而且新的长度只在函数内的副本里，需要把结果返回出去。</p>',
      '<pre><code class="language-go">func add(s []int) []int {\n    return append(s, 1)\n}</code></pre>',
    ],
  },
  {
    type: '前端工程化',
    title: 'webpack 打包后的体积太大怎么分析？',
    content: '<p>首页 JS 有 3MB，应该从哪里开始优化？</p>',
    answers: [
      '<p>先用 <code>webpack-bundle-analyzer</code> 看看是哪些依赖占了体积。</p>',
      '<p>路由级别做代码分割，用动态 <code>import()</code> 按需加载，首页只加载首页需要的代码。</p>',
      '<p>检查是不是整包引入了 lodash、moment 这类库，换成按需引入或更轻的替代品。</p>',
    ],
  },
  {
    type: 'Python',
    title: 'Python 的 GIL 对多线程爬虫有影响吗？',
    content: '<p>I/O 密集的爬虫用多线程还有意义吗？</p>',
    answers: [
      '<p>线程在等待网络 I/O 时会释放 GIL，所以 I/O 密集的爬虫用多线程依然有效。</p>',
      '<p>也可以试试 <code>asyncio</code> 加 <code>aiohttp</code>，并发数高的时候开销更小。</p>',
      '<p>解析 HTML 这类 CPU 密集的部分如果成了瓶颈，再考虑多进程。</p>',
    ],
  },
  {
    type: 'JavaScript',
    title: '跨域请求携带 Cookie 需要哪些设置？',
    content: "<p>前端 JavaScript 里已经给 fetch 设置了 <code>credentials: 'include'</code>，服务器还需要配置什么？</p>",
    answers: [
      '<p>服务器要返回 <code>Access-Control-Allow-Credentials: true</code>，并且 <code>Access-Control-Allow-Origin</code> 必须是具体的域名，不能是 <code>*</code>。</p>',
      '<p>Cookie 本身还要设置 <code>SameSite=None; Secure</code>，否则浏览器不会在跨站请求里带上它。</p>',
    ],
  },
  {
    type: 'Java',
    title: 'Java 的 synchronized 和 ReentrantLock 怎么选？',
    content: '<p>两者在性能和功能上有哪些差别？</p>',
    answers: [
      '<p>JDK 6 之后 <code>synchronized</code> 做了大量优化，一般场景性能差别不大，优先用它，代码更简单。</p>',
      '<p>需要可中断、超时获取锁、公平锁或多个条件变量时，再用 <code>ReentrantLock</code>，记得在 finally 里 unlock。</p>',
    ],
  },
  {
    type: '算法',
    title: '算法题：两数之和有没有比哈希表更好的解法？',
    content: '<p>数组无序的情况下，哈希表 O(n) 是不是已经最优了？</p>',
    answers: [
      '<p>无序数组至少要把每个元素看一遍，O(n) 的时间已经是下界了。</p>',
      '<p>如果数组有序，可以用双指针，时间 O(n)，额外空间 O(1)。</p>',
      '<p>先排序再双指针是 O(n log n)，只有在不能用额外空间时才划算。</p>',
    ],
  },
  {
    type: 'HTML',
    title: 'HTML 里 img 的 alt 属性一定要写吗？',
    content: '<p>页面上有很多装饰性的图片，每个 <code>&lt;img&gt;</code> 都要写 alt 吗？</p>',
    answers: [
      '<p>要写。有内容的图片写上描述，读屏软件会读出来；图片加载失败时也会显示 alt 文本。</p>',
      '<p>纯装饰的图片写 <code>alt=""</code>，读屏软件就会跳过它；不写 alt 的话可能会读出文件名。</p>',
    ],
  },
  {
    type: 'JavaScript',
    title: 'Promise.all 有一个失败就全部失败，怎么拿到其他的结果？',
    content: '<p>并发请求了 10 个接口，只要一个报错 <code>Promise.all</code> 就直接 reject 了。</p>',
    answers: [
      '<pre><code class="language-js">const results = await Promise.allSettled(tasks);</code></pre><p>用 allSettled 就不会因为一个失败而全部中断。</p>',
      '<p>也可以给每个 Promise 单独 <code>.catch</code>，把错误转成普通的值再交给 <code>Promise.all</code>。</p>',
    ],
  },
];
