import PagePlaceholder from '@/components/PagePlaceholder';

export default function AddInterview() {
  return <PagePlaceholder title="添加题目" />;
}
