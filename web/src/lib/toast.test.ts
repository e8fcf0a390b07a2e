import { describe, expect, it, vi } from 'vitest';
import { connectToaster, isToasterWanted, showToast, subscribeToasterWanted, type ToastRequest } from './toast';

describe('showToast', () => {
  it('asks for the toaster, keeps the toasts until it is mounted, then hands them over in order', () => {
    const wanted = vi.fn();
    const unsubscribe = subscribeToasterWanted(wanted);
    expect(isToasterWanted()).toBe(false);

    showToast({ title: 'Error', description: 'Please fill in all required fields.', variant: 'destructive' });
    showToast({ title: 'Success!' });
    expect(isToasterWanted()).toBe(true);
    expect(wanted).toHaveBeenCalledTimes(1);

    const shown: ToastRequest[] = [];
    const disconnect = connectToaster((request) => shown.push(request));
    expect(shown.map((t) => t.title)).toEqual(['Error', 'Success!']);
    expect(shown[0]?.variant).toBe('destructive');
    expect(new Set(shown.map((t) => t.id)).size).toBe(2);

    showToast({ title: 'Later' });
    expect(shown.map((t) => t.title)).toEqual(['Error', 'Success!', 'Later']);

    disconnect();
    unsubscribe();
  });
});
