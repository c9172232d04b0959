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

/** A dispute's page: its facts, its payment and its evidence. */
export const DisputeQuery = graphql(`
  query Dispute($id: ID!) {
    node(id: $id) {
      ... on Dispute {
        ...DisputeFields
        disputeID
        connectorStatus
        connectorDisputeID
        connectorReasonCode
        profileID
        modifiedAt
        evidence
        payment {
          ...PaymentRefFields
        }
      }
    }
  }
`);

/** What attaching or submitting evidence changes on a dispute. */
export const DisputeEvidenceFields = graphql(`
  fragment DisputeEvidenceFields on Dispute {
    id
    disputeStatus
    evidence
  }
`);

export const AttachDisputeEvidenceMutation = graphql(`
  mutation AttachDisputeEvidence(
    $id: ID!
    $evidenceType: String!
    $fileName: String!
    $fileType: String!
    $contentBase64: String!
    $idempotencyKey: String
  ) {
    attachDisputeEvidence(
      id: $id
      evidenceType: $evidenceType
      fileName: $fileName
      fileType: $fileType
      contentBase64: $contentBase64
      idempotencyKey: $idempotencyKey
    ) {
      dispute {
        ...DisputeEvidenceFields
      }
    }
  }
`);

export const SubmitDisputeEvidenceMutation = graphql(`
  mutation SubmitDisputeEvidence($id: ID!, $evidence: Map!, $idempotencyKey: String) {
    submitDisputeEvidence(id: $id, evidence: $evidence, idempotencyKey: $idempotencyKey) {
      dispute {
        ...DisputeEvidenceFields
      }
    }
  }
`);
