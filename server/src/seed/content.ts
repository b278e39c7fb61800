/**
 * Demo content pools: realistic Chinese text for a programmer community. The seed combines them
 * by hashing the row number, so any size of data set can be made in SQL without repeating the
 * same row pattern.
 */

export const TYPE_NAMES = ['HTML', 'CSS', 'JavaScript', 'TypeScript', 'React', 'Vue', '前端工程化', 'Node.js', 'Go', 'Java', 'Python', '数据库', '算法'];

export const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '黄', '赵', '吴', '周', '徐', '孙', '马', '朱', '胡', '郭', '何', '林', '高', '罗', '郑', '梁', '谢', '宋', '唐', '许', '韩', '冯', '邓', '曹'];
export const GIVEN_NAMES = ['伟', '芳', '娜', '敏', '静', '磊', '强', '洋', '艳', '杰', '娟', '涛', '明', '超', '秀英', '霞', '平', '刚', '桂英', '子轩', '梓涵', '浩然', '一诺', '思远', '雨桐', '俊杰', '欣怡', '宇航', '佳琪', '晨曦'];
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

export const BOOKS: Array<{ title: string; intro: string }> = [
  { title: 'JavaScript 高级程序设计（第4版）', intro: '<p>全面讲解 JavaScript 语言核心与浏览器环境，涵盖 ES6+ 新特性、DOM、事件、网络请求与模块化。</p>' },
  { title: '你不知道的 JavaScript（上卷）', intro: '<p>深入作用域、闭包、this 与原型，帮你真正理解 JavaScript 的运行机制。</p>' },
  { title: '深入浅出 Node.js', intro: '<p>从异步 I/O、事件循环到内存控制与进程管理，系统介绍 Node.js 的原理与实践。</p>' },
  { title: 'CSS 世界', intro: '<p>以流、元素与基本尺寸为主线，讲透 CSS 布局背后的规则。</p>' },
  { title: '图解 HTTP', intro: '<p>用大量图示讲解 HTTP 协议、缓存、HTTPS 与 Web 安全的基础知识。</p>' },
  { title: 'TypeScript 编程', intro: '<p>从类型系统基础到高级类型、泛型与声明文件，适合有 JS 基础的开发者。</p>' },
  { title: 'React 设计原理', intro: '<p>剖析 React 的 Fiber 架构、调度与 Hooks 实现，理解框架为何这样设计。</p>' },
  { title: 'Vue.js 设计与实现', intro: '<p>从响应式系统、渲染器到编译器，手把手实现一个迷你版 Vue 3。</p>' },
  { title: 'Go 语言圣经', intro: '<p>Go 语言的经典入门与进阶读物，涵盖并发、接口与反射。</p>' },
  { title: 'Effective Java（第3版）', intro: '<p>90 条 Java 编程的最佳实践，写出更清晰、更健壮的代码。</p>' },
  { title: '流畅的 Python', intro: '<p>深入 Python 数据模型、迭代器、协程与元编程，写出地道的 Python。</p>' },
  { title: 'PostgreSQL 实战', intro: '<p>覆盖索引、执行计划、事务隔离与高可用部署的 PostgreSQL 实践指南。</p>' },
  { title: '算法（第4版）', intro: '<p>系统讲解排序、查找、图与字符串算法，配有大量可运行的代码。</p>' },
  { title: '前端工程化：体系设计与实践', intro: '<p>从脚手架、构建工具到 CI/CD 与监控，搭建完整的前端工程体系。</p>' },
  { title: '重构：改善既有代码的设计', intro: '<p>识别代码坏味道，并用安全的小步重构持续改善设计。</p>' },
  { title: '代码整洁之道', intro: '<p>命名、函数、注释与测试：写出让同事愿意读的代码。</p>' },
];

export const INTERVIEWS: Array<{ title: string; content: string }> = [
  {
    title: '什么是闭包？闭包有哪些常见用途？',
    content:
      '<p>闭包是指函数能够记住并访问它定义时所在的词法作用域，即使函数在该作用域之外执行。</p><pre><code class="language-js">function counter() {\n  let n = 0;\n  return () =&gt; ++n;\n}\nconst next = counter();\nnext(); // 1\nnext(); // 2</code></pre><p>常见用途：数据私有化、函数工厂、防抖与节流。</p>',
  },
  {
    title: '说说事件循环（Event Loop）中宏任务与微任务的执行顺序',
    content:
      '<p>每执行完一个宏任务，就清空当前所有微任务，然后才进行渲染和下一个宏任务。</p><pre><code class="language-js">setTimeout(() =&gt; console.log(1));\nPromise.resolve().then(() =&gt; console.log(2));\nconsole.log(3);\n// 输出：3 2 1</code></pre>',
  },
  {
    title: 'React 中 useEffect 和 useLayoutEffect 有什么区别？',
    content:
      '<p><code>useLayoutEffect</code> 在 DOM 变更后、浏览器绘制前同步执行；<code>useEffect</code> 在绘制之后异步执行。需要测量布局并同步修改时用前者，其余情况优先用后者。</p>',
  },
  {
    title: 'CSS 如何实现一个元素的水平垂直居中？',
    content:
      '<p>最常用的是 Flex 布局：</p><pre><code class="language-css">.parent {\n  display: flex;\n  justify-content: center;\n  align-items: center;\n}</code></pre><p>也可以使用 Grid 的 <code>place-items: center</code>，或绝对定位配合 <code>transform: translate(-50%, -50%)</code>。</p>',
  },
  {
    title: 'Vue 3 的响应式原理和 Vue 2 有什么不同？',
    content:
      '<p>Vue 2 使用 <code>Object.defineProperty</code> 劫持已有属性，无法检测新增属性和数组下标；Vue 3 使用 <code>Proxy</code> 代理整个对象，按需递归，性能和能力都更好。</p><pre><code class="language-js">const state = reactive({ count: 0 });\neffect(() =&gt; console.log(state.count));\nstate.count++; // 触发 effect</code></pre>',
  },
  {
    title: 'TypeScript 中 interface 和 type 的区别是什么？',
    content:
      '<p>两者都能描述对象形状。<code>interface</code> 可以声明合并、适合描述公共 API；<code>type</code> 能表示联合类型、元组和映射类型。</p><pre><code class="language-ts">type Status = \'ok\' | \'error\';\ninterface User { id: string; name: string }</code></pre>',
  },
  {
    title: 'Node.js 中如何处理 CPU 密集型任务而不阻塞事件循环？',
    content:
      '<p>可以使用 <code>worker_threads</code> 把计算放到工作线程，或拆分任务用 <code>setImmediate</code> 让出事件循环，或交给独立的服务处理。</p><pre><code class="language-js">const { Worker } = require(\'node:worker_threads\');\nnew Worker(\'./heavy.js\', { workerData: input });</code></pre>',
  },
  {
    title: '数据库索引为什么能加快查询？什么时候索引会失效？',
    content:
      '<p>B+ 树索引让查找从全表扫描变为对数级的树查找。对索引列使用函数、隐式类型转换、前导模糊匹配（<code>LIKE \'%abc\'</code>）或不满足最左前缀时，索引可能无法使用。</p><pre><code class="language-sql">CREATE INDEX idx_user_name ON users (name);\nEXPLAIN SELECT * FROM users WHERE name = \'张三\';</code></pre>',
  },
  {
    title: 'Go 语言中 goroutine 泄漏通常是怎么发生的？',
    content:
      '<p>最常见的是 goroutine 阻塞在没有人读写的 channel 上。用 <code>context</code> 控制生命周期可以避免：</p><pre><code class="language-go">select {\ncase v := &lt;-ch:\n    handle(v)\ncase &lt;-ctx.Done():\n    return\n}</code></pre>',
  },
  {
    title: '手写一个防抖（debounce）函数',
    content:
      '<pre><code class="language-js">function debounce(fn, wait) {\n  let timer;\n  return function (...args) {\n    clearTimeout(timer);\n    timer = setTimeout(() =&gt; fn.apply(this, args), wait);\n  };\n}</code></pre><p>防抖适合搜索框输入、窗口 resize 等高频触发的场景。</p>',
  },
  {
    title: 'HTTP 缓存中强缓存和协商缓存的区别？',
    content:
      '<p>强缓存由 <code>Cache-Control</code>/<code>Expires</code> 控制，命中时不发请求；协商缓存通过 <code>ETag</code>/<code>Last-Modified</code> 向服务器确认，未变化时返回 304。</p>',
  },
  {
    title: 'Java 中 HashMap 的底层结构是怎样的？',
    content:
      '<p>JDK 8 起是数组 + 链表 + 红黑树：哈希冲突的链表长度超过 8 且数组长度不小于 64 时转为红黑树，扩容时容量翻倍并重新分布。</p>',
  },
];

export const ISSUES: Array<{ title: string; content: string }> = [
  { title: 'React 18 里 useEffect 为什么执行了两次？', content: '<p>开发环境下组件挂载后 <code>useEffect</code> 执行了两次，生产环境正常，这是正常现象吗？</p>' },
  { title: 'Vue 3 的 ref 和 reactive 应该怎么选？', content: '<p>项目里两种写法混着用，有点乱，大家一般有什么约定？</p>' },
  { title: 'Node.js 读取大文件内存暴涨怎么办？', content: '<p>用 <code>fs.readFile</code> 读 2GB 的日志文件时进程直接崩了。</p><pre><code class="language-js">const data = fs.readFileSync(\'big.log\');</code></pre><p>有什么更好的办法？</p>' },
  { title: 'CSS 中 flex: 1 到底是什么意思？', content: '<p><code>flex: 1</code> 等价于哪三个属性？和 <code>flex: auto</code> 有什么区别？</p>' },
  { title: 'TypeScript 泛型约束报错：类型不满足约束', content: '<pre><code class="language-ts">function getKey&lt;T&gt;(obj: T, key: keyof T) {\n  return obj[key];\n}</code></pre><p>调用时提示类型不满足约束，应该怎么写？</p>' },
  { title: 'PostgreSQL 分页越往后越慢怎么优化？', content: '<p><code>OFFSET 1000000</code> 的查询要好几秒，有没有更好的分页方式？</p>' },
  { title: 'Go 里 slice 作为参数传递会被修改吗？', content: '<p>在函数里 append 之后外面的 slice 没变，但修改元素外面却变了，为什么？</p>' },
  { title: 'webpack 打包后的体积太大怎么分析？', content: '<p>首页 JS 有 3MB，应该从哪里开始优化？</p>' },
  { title: 'Python 的 GIL 对多线程爬虫有影响吗？', content: '<p>I/O 密集的爬虫用多线程还有意义吗？</p>' },
  { title: '跨域请求携带 Cookie 需要哪些设置？', content: '<p>前端已经设置了 <code>withCredentials</code>，服务器还需要配置什么？</p>' },
  { title: 'Java 的 synchronized 和 ReentrantLock 怎么选？', content: '<p>两者在性能和功能上有哪些差别？</p>' },
  { title: '算法题：两数之和有没有比哈希表更好的解法？', content: '<p>数组无序的情况下，哈希表 O(n) 是不是已经最优了？</p>' },
];

export const COMMENTS = [
  '<p>讲得很清楚，收藏了！</p>',
  '<p>补充一点：生产环境一定要记得开启 gzip 压缩。</p>',
  '<p>我之前也遇到过同样的问题，最后是升级依赖版本解决的。</p>',
  '<p>可以看看官方文档里关于这一节的说明，写得很详细。</p>',
  '<p>试了一下确实可以，感谢分享。</p>',
  '<p>这里用 <code>Map</code> 会比普通对象更合适一些。</p>',
  '<p>这本书我看了两遍，第二遍收获更大。</p>',
  '<p>建议先写个最小复现的例子，更容易定位问题。</p>',
  '<pre><code class="language-js">const result = await Promise.allSettled(tasks);</code></pre><p>用 allSettled 就不会因为一个失败而全部中断。</p>',
  '<p>请问有配套的练习题吗？</p>',
  '<p>面试被问到过这个题，答得不好，看完终于懂了。</p>',
  '<p>同问，蹲一个答案。</p>',
  '<p>思路很好，不过边界条件还需要再考虑一下。</p>',
  '<p>下载链接失效了，能更新一下吗？</p>',
  '<p>写得太好了，期待更多这样的内容！</p>',
];
