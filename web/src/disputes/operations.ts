import { graphql } from "../gql";

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
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      edges {
        node {
          id
          disputeID
          amount
          currency
          disputeStage
          disputeStatus
          connector
          connectorReason
          challengeRequiredBy
          createdAt
          payment {
            id
            paymentID
          }
        }
      }
    }
  }
`);
