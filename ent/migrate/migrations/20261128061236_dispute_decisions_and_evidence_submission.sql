-- Modify "disputes" table
ALTER TABLE `disputes` ADD COLUMN `evidence_pending_since` datetime(6) NULL, ADD INDEX `dispute_dispute_status_connector_updated_at` (`dispute_status`, `connector_updated_at`), ADD INDEX `dispute_evidence_pending_since` (`evidence_pending_since`);
