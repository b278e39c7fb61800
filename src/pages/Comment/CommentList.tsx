import PagePlaceholder from '@/components/PagePlaceholder';

export default function CommentList() {
  return <PagePlaceholder title="评论列表" />;
}
