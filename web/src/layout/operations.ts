import { graphql } from "../gql";

/** What a list's pager needs of a connection's page (useCursorPage, the URL-paged lists). */
export const PageFields = graphql(`
  fragment PageFields on PageInfo {
    hasNextPage
    hasPreviousPage
    startCursor
    endCursor
  }
`);

/** A business profile as the profile picker and the developers' page name it. */
export const ProfileFields = graphql(`
  fragment ProfileFields on Profile {
    id
    profileID
    profileName
    isDefault
  }
`);

/** The merchant's business profiles, for the profile picker. */
export const ProfilesQuery = graphql(`
  query Profiles {
    merchantAccount {
      id
      defaultProfileID
      profiles(first: 100, orderBy: { field: CREATED_AT, direction: ASC }) {
        edges {
          node {
            ...ProfileFields
          }
        }
      }
    }
  }
`);
