import { afterEach, beforeEach, expect, it } from 'vitest';
import { ApiError } from '@everest/core/client';
import { portalMessages } from '@everest/core/domain';
import { connectToaster, type ToastRequest } from '../toast';
import { notifyFailure } from './notify';

let shown: ToastRequest[] = [];
let disconnect = () => {};
beforeEach(() => {
  shown = [];
  disconnect = connectToaster((request) => shown.push(request));
});
afterEach(() => disconnect());

// Issue 35: the server's sentences of users-tab refusals, as admin-users.service words them.
const builtInRole = 'The built-in administrator must stay an administrator.';
const emailTaken = 'That email address is already used by another account. Please choose another one.';

it("does not say 'Please try again' for a refusal a retry cannot fix, such as demoting the built-in administrator", () => {
  notifyFailure(portalMessages.userUpdateFailed, new ApiError(409, builtInRole));
  expect(shown.at(-1)).toMatchObject({ title: 'Error: Failed to update user.', description: builtInRole });
});

it('gives a duplicate e-mail one sentence of reason, not the catalogue guess above the server reason', () => {
  notifyFailure(portalMessages.userCreateFailed, new ApiError(409, emailTaken));
  expect(shown.at(-1)).toMatchObject({ title: 'Creation Failed: Failed to create user.', description: emailTaken });
});

it('keeps the whole catalogue text where a retry may help: the server down, or unreachable', () => {
  notifyFailure(portalMessages.userUpdateFailed, new ApiError(503, 'The service is briefly unavailable.'));
  expect(shown.at(-1)?.title).toBe(portalMessages.userUpdateFailed);
  notifyFailure(portalMessages.userUpdateFailed, new ApiError(0, 'Could not reach the server.'));
  expect(shown.at(-1)?.title).toBe(portalMessages.userUpdateFailed);
});

it("shows the sentence after the server's 'Title: ' as a sentence, with a capital", () => {
  notifyFailure(portalMessages.geocodingFailed, new ApiError(502, 'Geocoding Failed: the geocoding service answered 500. Please try again later.'));
  expect(shown.at(-1)).toMatchObject({ title: portalMessages.geocodingFailed, description: 'The geocoding service answered 500. Please try again later.' });
});
