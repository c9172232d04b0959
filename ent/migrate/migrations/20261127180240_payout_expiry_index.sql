-- Modify "payouts" table
ALTER TABLE `payouts` ADD INDEX `payout_status_client_secret_expires_at` (`status`, `client_secret_expires_at`);
