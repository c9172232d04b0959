import { graphql } from "../gql";

/** A profile's webhook settings as the webhooks page shows and edits them. */
export const WebhookSettingsFields = graphql(`
  fragment WebhookSettingsFields on Profile {
    webhookSettings {
      webhookURL
      deliveryEnabled
      enabledEventTypes
    }
  }
`);

/** An event as the event log and a payment's page show it, with its delivery attempts. */
export const LoggedEventFields = graphql(`
  fragment LoggedEventFields on Event {
    id
    eventID
    eventType
    objectID
    createdAt
    isDelivered
    deliveryStatus
    nextAttemptAt
    deliveryAttempts(first: 10) {
      totalCount
      edges {
        node {
          id
          deliveryAttempt
          createdAt
          responseStatusCode
          isDeliverySuccessful
          responseBody
          errorMessage
        }
      }
    }
  }
`);

/** An API key as the keys table names it and a new or rolled key's notice shows it. */
export const ApiKeyFields = graphql(`
  fragment ApiKeyFields on APIKey {
    id
    keyID
    name
  }
`);

export const DevelopersQuery = graphql(`
  query Developers {
    merchantAccount {
      id
      publishableKey
      defaultProfileID
      apiKeys(first: 100) {
        edges {
          node {
            ...ApiKeyFields
            description
            prefix
            createdAt
            expiresAt
            revokedAt
          }
        }
      }
      profiles(first: 100) {
        edges {
          node {
            ...ProfileFields
            ...WebhookSettingsFields
          }
        }
      }
    }
  }
`);

export const SigningKeyQuery = graphql(`
  query WebhookSigningKey($id: ID!) {
    node(id: $id) {
      ... on Profile {
        id
        webhookSigningKey
      }
    }
  }
`);

export const CreateApiKeyMutation = graphql(`
  mutation CreateApiKey($input: CreateApiKeyInput!, $idempotencyKey: String) {
    createApiKey(input: $input, idempotencyKey: $idempotencyKey) {
      apiKey {
        ...ApiKeyFields
      }
      key
    }
  }
`);

export const RollApiKeyMutation = graphql(`
  mutation RollApiKey($id: ID!, $gracePeriodSeconds: Int!, $idempotencyKey: String) {
    rollApiKey(id: $id, gracePeriodSeconds: $gracePeriodSeconds, idempotencyKey: $idempotencyKey) {
      apiKey {
        ...ApiKeyFields
      }
      key
      previous {
        id
        expiresAt
      }
    }
  }
`);

export const RevokeApiKeyMutation = graphql(`
  mutation RevokeApiKey($id: ID!, $idempotencyKey: String) {
    revokeApiKey(id: $id, idempotencyKey: $idempotencyKey) {
      apiKey {
        id
        revokedAt
      }
    }
  }
`);

export const UpdateWebhookSettingsMutation = graphql(`
  mutation UpdateWebhookSettings($profileID: ID!, $input: WebhookSettingsInput!, $idempotencyKey: String) {
    updateProfileWebhookSettings(profileID: $profileID, input: $input, idempotencyKey: $idempotencyKey) {
      profile {
        id
        ...WebhookSettingsFields
      }
    }
  }
`);

export const CreateProfileMutation = graphql(`
  mutation CreateProfile($input: CreateProfileInput!, $idempotencyKey: String) {
    createProfile(input: $input, idempotencyKey: $idempotencyKey) {
      profile {
        ...ProfileFields
      }
    }
  }
`);

/** One profile's events, newest first. */
export const EventsQuery = graphql(`
  query Events($profileID: String!, $first: Int, $after: Cursor, $last: Int, $before: Cursor) {
    events(first: $first, after: $after, last: $last, before: $before, where: { profileID: $profileID }) {
      totalCount
      pageInfo {
        ...PageFields
      }
      edges {
        node {
          ...LoggedEventFields
        }
      }
    }
  }
`);

export const RetryDeliveryMutation = graphql(`
  mutation RetryWebhookDelivery($eventID: ID!, $idempotencyKey: String) {
    retryWebhookDelivery(eventID: $eventID, idempotencyKey: $idempotencyKey) {
      deliveryAttempt {
        id
        isDeliverySuccessful
        responseStatusCode
      }
    }
  }
`);

export const RetryFailedWebhookDeliveriesMutation = graphql(`
  mutation RetryFailedWebhookDeliveries($profileID: ID) {
    retryFailedWebhookDeliveries(profileID: $profileID) {
      queued
    }
  }
`);
