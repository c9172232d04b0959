import { graphql } from "../gql";

/** A routing algorithm as the routing page lists it and a new one's notice names it. */
export const RoutingAlgorithmFields = graphql(`
  fragment RoutingAlgorithmFields on RoutingAlgorithm {
    id
    name
    kind
    profileID
    active
    algorithm
    createdAt
  }
`);

export const RoutingQuery = graphql(`
  query Routing {
    merchantAccount {
      id
      defaultProfileID
    }
    connectorAccounts(first: 100, orderBy: { field: CREATED_AT, direction: ASC }) {
      edges {
        node {
          ...ConnectorAccountFields
        }
      }
    }
    routingAlgorithms(first: 50) {
      edges {
        node {
          ...RoutingAlgorithmFields
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
        ...ConnectorAccountFields
      }
    }
  }
`);

export const CreateRoutingAlgorithmMutation = graphql(`
  mutation CreateRoutingAlgorithm($input: CreateRoutingAlgorithmInput!, $idempotencyKey: String) {
    createRoutingAlgorithm(input: $input, idempotencyKey: $idempotencyKey) {
      routingAlgorithm {
        ...RoutingAlgorithmFields
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

export const RoutingFactsQuery = graphql(`
  query RoutingFacts {
    routingFacts {
      name
      kind
      values
      valueTypes {
        type
        comparisons
      }
    }
  }
`);

export const GsmRuleFieldsFragment = graphql(`
  fragment GsmRuleFields on GsmRule {
    id
    connector
    flow
    subFlow
    code
    message
    status
    decision
    stepUpPossible
    clearPanPossible
    alternateNetworkPossible
    unifiedCode
    unifiedMessage
    errorCategory
    standardisedCode
    routerError
    description
    userGuidanceMessage
  }
`);

export const GsmRulesQuery = graphql(`
  query GsmRules($where: GsmRuleWhereInput) {
    gsmRules(first: 100, where: $where) {
      totalCount
      edges {
        node {
          ...GsmRuleFields
        }
      }
    }
  }
`);

export const CreateGsmRuleMutation = graphql(`
  mutation CreateGsmRule($input: CreateGsmRuleInput!, $idempotencyKey: String) {
    createGsmRule(input: $input, idempotencyKey: $idempotencyKey) {
      gsmRule {
        ...GsmRuleFields
      }
    }
  }
`);

export const UpdateGsmRuleMutation = graphql(`
  mutation UpdateGsmRule($id: ID!, $input: UpdateGsmRuleInput!, $idempotencyKey: String) {
    updateGsmRule(id: $id, input: $input, idempotencyKey: $idempotencyKey) {
      gsmRule {
        ...GsmRuleFields
      }
    }
  }
`);

export const DeleteGsmRuleMutation = graphql(`
  mutation DeleteGsmRule($id: ID!, $idempotencyKey: String) {
    deleteGsmRule(id: $id, idempotencyKey: $idempotencyKey) {
      id
      deleted
    }
  }
`);
