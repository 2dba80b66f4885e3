import { expect } from 'chai';
import { describeMongoUri, describeRedis, reasonOf, UnreachableError } from '../../shared/unreachable.js';

describe('shared/unreachable', () => {
  it('names the hosts and database of a MongoDB URI, never its credentials or options', () => {
    expect([
      'mongodb://127.0.0.1:27017/hc',
      'mongodb://u:p%40ss@h1:27017,h2:27018/prod?replicaSet=rs0',
      'mongodb+srv://u:p@cluster0.example.net/hc?retryWrites=true',
      'mongodb://127.0.0.1:27017/',
      'mongodb://127.0.0.1:27017',
    ].map(describeMongoUri)).to.deep.equal([
      '127.0.0.1:27017/hc',
      'h1:27017,h2:27018/prod',
      'cluster0.example.net/hc',
      '127.0.0.1:27017/test',
      '127.0.0.1:27017/test',
    ]);
  });

  it('names host, port and logical database of a Redis connection', () => {
    expect(describeRedis({ host: '10.0.0.5', port: 6380, db: 2 })).to.equal('10.0.0.5:6380/2');
  });

  it('gives the first line of an error, or the first inner error of an empty AggregateError', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED ::1:6379'), { code: 'ECONNREFUSED' });
    expect([reasonOf(new Error('one\ntwo')), reasonOf(new AggregateError([refused], ''))]).to.deep.equal(['one', 'connect ECONNREFUSED ::1:6379']);
  });

  it('is an error whose stack is its one-line message', () => {
    const err = new UnreachableError('Redis', '127.0.0.1:6379/0', 'connect ECONNREFUSED 127.0.0.1:6379');
    expect([err.message, err.stack]).to.deep.equal([
      'cannot reach Redis at 127.0.0.1:6379/0: connect ECONNREFUSED 127.0.0.1:6379',
      'UnreachableError: cannot reach Redis at 127.0.0.1:6379/0: connect ECONNREFUSED 127.0.0.1:6379',
    ]);
  });
});
