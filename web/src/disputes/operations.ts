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
