ALTER TABLE "book_unlocks" DROP CONSTRAINT "book_unlocks_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "book_unlocks" DROP CONSTRAINT "book_unlocks_book_id_books_id_fk";
--> statement-breakpoint
ALTER TABLE "points_ledger" DROP CONSTRAINT "points_ledger_user_id_users_id_fk";
