/** The tests of the app-wide models (session, ui, lookups): each test on empty storage, with a fresh model. */
import { suite } from 'uvu'
import { type KeyValue, useMemoryStorages } from '../lib/storage.ts'

/** What each test gets: the tab's session and local storage, and its model. */
export interface ModelTest<M> {
  ss: KeyValue
  ls: KeyValue
  m: M
}

/** A uvu suite whose every test starts on empty in-memory storage with a fresh model from `make`. */
export function modelSuite<M>(title: string, make: () => M) {
  const test = suite<ModelTest<M>>(title)
  test.before.each((ctx) => {
    Object.assign(ctx, useMemoryStorages())
    ctx.m = make()
  })
  return test
}
