// Umi's ambient declarations (CSS modules, images) live in the generated src/.umi, which the
// tsconfig glob skips as a dot folder.
import '@umijs/max/typings';
