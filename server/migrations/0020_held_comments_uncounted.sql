-- Issue 25: a comment held by a moderation rule is no longer counted on its parent. The parents
-- of the comments held now are counted again without them (points already paid stay: the
-- approval pays only what a comment has not yet earned, see server/src/modules/site/comment-credit.ts).
UPDATE issues i SET comment_number = (SELECT count(*)::int FROM comments c WHERE c.issue_id = i.id AND NOT c.held)
WHERE i.id IN (SELECT issue_id FROM comments WHERE held AND issue_id IS NOT NULL);
--> statement-breakpoint
UPDATE books b SET comment_number = (SELECT count(*)::int FROM comments c WHERE c.book_id = b.id AND NOT c.held)
WHERE b.id IN (SELECT book_id FROM comments WHERE held AND book_id IS NOT NULL);
