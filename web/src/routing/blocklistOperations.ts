import { graphql } from "../gql";

export const BlocklistQuery = graphql(`
  query Blocklist {
    merchantAccount {
      id
      blocklistGuardEnabled
    }
    blocklistEntries(first: 100) {
      totalCount
      edges {
        node {
          id
          fingerprintID
          dataKind
          createdAt
        }
      }
    }
  }
`);

export const AddBlocklistEntryMutation = graphql(`
  mutation AddBlocklistEntry($input: BlocklistEntryInput!, $idempotencyKey: String) {
    addBlocklistEntry(input: $input, idempotencyKey: $idempotencyKey) {
      blocklistEntry {
        id
      }
    }
  }
`);

export const RemoveBlocklistEntryMutation = graphql(`
  mutation RemoveBlocklistEntry($input: BlocklistEntryInput!, $idempotencyKey: String) {
    removeBlocklistEntry(input: $input, idempotencyKey: $idempotencyKey) {
      id
    }
  }
`);

export const SetBlocklistGuardMutation = graphql(`
  mutation SetBlocklistGuard($enabled: Boolean!, $idempotencyKey: String) {
    setBlocklistGuard(enabled: $enabled, idempotencyKey: $idempotencyKey) {
      enabled
    }
  }
`);
