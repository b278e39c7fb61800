import PagePlaceholder from '@/components/PagePlaceholder';

export default function IssueList() {
  return <PagePlaceholder title="问答列表" />;
}
