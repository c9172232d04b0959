import { graphql } from "../gql";

/** A dispute as the disputes list and a payment's page show it. */
export const DisputeFields = graphql(`
  fragment DisputeFields on Dispute {
    id
    amount
    currency
    disputeStage
    disputeStatus
    connector
    connectorReason
    challengeRequiredBy
    createdAt
  }
`);

export const AcceptDisputeMutation = graphql(`
  mutation AcceptDispute($id: ID!, $idempotencyKey: String) {
    acceptDispute(id: $id, idempotencyKey: $idempotencyKey) {
      dispute {
        id
        disputeStatus
      }
    }
  }
`);

export const DisputesQuery = graphql(`
  query Disputes($first: Int, $after: Cursor, $last: Int, $before: Cursor, $where: DisputeWhereInput) {
    disputes(first: $first, after: $after, last: $last, before: $before, where: $where, orderBy: [{ field: CREATED_AT, direction: DESC }]) {
      totalCount
      pageInfo {
        ...PageFields
      }
      edges {
        node {
          ...DisputeFields
          disputeID
          payment {
            ...PaymentRefFields
          }
        }
      }
    }
  }
`);
