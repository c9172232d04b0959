import { graphql } from "../gql";

export const RoutingQuery = graphql(`
  query Routing {
    merchantAccount {
      id
      defaultProfileID
    }
    connectorAccounts(first: 100, orderBy: { field: CREATED_AT, direction: ASC }) {
      edges {
        node {
          id
          merchantConnectorID
          connectorName
          connectorLabel
          connectorType
          profileID
          disabled
        }
      }
    }
    routingAlgorithms(first: 50) {
      edges {
        node {
          id
          name
          kind
          profileID
          active
          algorithm
          createdAt
        }
      }
    }
  }
`);

export const RoutingEvaluateQuery = graphql(`
  query RoutingEvaluate($profileID: ID, $payment: RoutingPaymentInput!) {
    routingEvaluate(profileID: $profileID, payment: $payment) {
      routingApproach
      routingAlgorithmID
      routingKind
      routingRule
      candidates {
        id
        merchantConnectorID
        connectorName
        connectorLabel
      }
    }
  }
`);

export const CreateRoutingAlgorithmMutation = graphql(`
  mutation CreateRoutingAlgorithm($input: CreateRoutingAlgorithmInput!, $idempotencyKey: String) {
    createRoutingAlgorithm(input: $input, idempotencyKey: $idempotencyKey) {
      routingAlgorithm {
        id
        name
        active
      }
    }
  }
`);

export const ActivateRoutingAlgorithmMutation = graphql(`
  mutation ActivateRoutingAlgorithm($id: ID!, $idempotencyKey: String) {
    activateRoutingAlgorithm(id: $id, idempotencyKey: $idempotencyKey) {
      routingAlgorithm {
        id
        active
      }
    }
  }
`);
